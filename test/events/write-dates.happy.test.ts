import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";

const create = async (json: Record<string, unknown>) => {
  const res = await api(`${NS}/events`, { json: { title: "Dated", ...json }, headers: ADMIN });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

describe("event dates on write (§8.2, contract §5)", () => {
  it("reads naive dates in the request time zone and stores UTC copies with the right abbreviation", async () => {
    const winter = await create({
      start_date: "2027-01-15 19:00:00",
      end_date: "2027-01-15 21:00:00",
      timezone: "America/New_York",
    });
    expect(winter).toMatchObject({ utc_start_date: "2027-01-16 00:00:00", timezone_abbr: "EST" });
    const summer = await create({
      start_date: "2027-07-15 19:00:00",
      end_date: "2027-07-15 21:00:00",
      timezone: "America/New_York",
    });
    expect(summer).toMatchObject({ utc_start_date: "2027-07-15 23:00:00", timezone_abbr: "EDT" });
    const berlin = await create({
      start_date: "2027-07-15 19:00:00",
      end_date: "2027-07-15 21:00:00",
      timezone: "Europe/Berlin",
    });
    expect(berlin).toMatchObject({ utc_start_date: "2027-07-15 17:00:00", timezone_abbr: "CEST" });
    const tokyo = await create({
      start_date: "2027-07-15 19:00:00",
      end_date: "2027-07-15 21:00:00",
      timezone: "Asia/Tokyo",
    });
    expect(tokyo).toMatchObject({ utc_start_date: "2027-07-15 10:00:00", timezone_abbr: "JST" });
  });

  it("keeps the instant of inputs with an offset and shows it in the event's zone", async () => {
    const e = await create({
      start_date: "2025-05-17T17:30:00Z",
      end_date: "2025-05-17T18:15:00Z",
      timezone: "America/New_York",
    });
    expect(e).toMatchObject({
      start_date: "2025-05-17 13:30:00",
      utc_start_date: "2025-05-17 17:30:00",
      utc_end_date: "2025-05-17 18:15:00",
    });
    const offset = await create({
      start_date: "2027-03-01T10:00:00+02:00",
      end_date: "2027-03-01T11:00:00+02:00",
    });
    expect(offset).toMatchObject({ start_date: "2027-03-01 08:00:00", timezone: "UTC" });
  });

  it("accepts UTC±H offsets as time zones", async () => {
    const e = await create({
      start_date: "2027-03-01 10:00:00",
      end_date: "2027-03-01 11:00:00",
      timezone: "UTC+5:30",
    });
    expect(e).toMatchObject({
      timezone: "UTC+5:30",
      timezone_abbr: "UTC+5:30",
      utc_start_date: "2027-03-01 04:30:00",
    });
  });

  it("understands the relative phrases TEC clients send", async () => {
    const now = DateTime.utc();
    const tomorrow = now.plus({ days: 1 }).toFormat("yyyy-MM-dd");
    const e = await create({ start_date: "tomorrow 9am", end_date: "tomorrow 4:30pm" });
    expect([e.start_date, e.end_date]).toEqual([`${tomorrow} 09:00:00`, `${tomorrow} 16:30:00`]);
    const week = await create({ start_date: "+1 week", end_date: "+1 week 2 hours" });
    expect(week.start_date.slice(0, 10)).toBe(now.plus({ weeks: 1 }).toFormat("yyyy-MM-dd"));
    const wed = await create({ start_date: "next wednesday 4pm", end_date: "next wednesday 6pm" });
    expect(DateTime.fromFormat(wed.start_date, "yyyy-MM-dd HH:mm:ss").weekday).toBe(3);
    expect(wed.start_date.slice(11)).toBe("16:00:00");
    const ts = await create({ start_date: "1800000000", end_date: "1800003600" });
    expect(ts.utc_start_date).toBe("2027-01-15 08:00:00");
  });

  it("snaps all-day events to whole days and never ends before it starts", async () => {
    const allDay = await create({
      all_day: true,
      start_date: "2027-02-01 15:00",
      end_date: "2027-02-03 09:00",
    });
    expect(allDay).toMatchObject({
      all_day: true,
      start_date: "2027-02-01 00:00:00",
      end_date: "2027-02-03 23:59:59",
    });
    const backwards = await create({
      start_date: "2027-02-01 15:00",
      end_date: "2027-02-01 09:00",
    });
    expect(backwards.end_date).toBe("2027-02-01 15:00:00");
  });
});

describe("cost (§4.8)", () => {
  it.each([
    ["$23", "$23", ["23"], "$", "prefix"],
    ["20$", "20$", ["20"], "$", "postfix"],
    [["0$", "20$", "30$"], "Free – 30$", ["0", "20", "30"], "$", "postfix"],
    ["Free", "Free", ["free"], "", ""],
    ["10 - 25.50", "$10 – $25.5", ["10", "25.5"], "", ""],
    ["1,500", "$1500", ["1500"], "", ""],
    ["20€", "20€", ["20"], "€", "postfix"],
  ])("%j → %s", async (cost, formatted, values, symbol, position) => {
    const res = await api(`${NS}/events`, {
      json: { title: "C", start_date: "2027-01-01 10:00", end_date: "2027-01-01 11:00", cost },
      headers: ADMIN,
    });
    expect(res.body.cost).toBe(formatted);
    expect(res.body.cost_details).toEqual({
      currency_symbol: symbol,
      currency_code: "",
      currency_position: position,
      values,
    });
  });
});
