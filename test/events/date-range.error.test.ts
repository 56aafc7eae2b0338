/**
 * A date the parser cannot represent exactly — a year past 9999, a day the month
 * does not have — is refused with 400 `rest_invalid_param` naming the parameter, never stored or
 * applied as some other date (PHP's `strtotime` read `99999-01-01 10:00:00` as 2009-01-01). Every
 * date a write takes (events: `start_date`, `end_date`, `date`, `date_utc`; venues and organizers:
 * `date`, `date_utc`) and every date filter of the lists.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, type ApiResponse, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";

/** Dates that name no instant the service can store as written. */
const UNREPRESENTABLE = [
  "99999-01-01 10:00:00",
  "99999-01-01",
  "10000-01-01 00:00:00",
  "123456-01-01",
  "99999-01-01T10:00:00Z",
  "99999-01-01T10:00:00+02:00",
  "2026-02-30 10:00:00",
  "2026-11-31",
  "2026-06-31T10:00:00Z",
];

function expectInvalid(res: ApiResponse, params: string[], what: string) {
  expect(res.status, what).toBe(400);
  expect(res.body.code, what).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params), what).toEqual(params);
}

const event = (over: Record<string, unknown>) => ({
  title: "Launch",
  start_date: "2030-05-01 10:00:00",
  end_date: "2030-05-01 11:00:00",
  ...over,
});

describe("dates the parser cannot represent exactly", () => {
  it("event creates refuse them in start_date, end_date, date and date_utc, and store nothing", async () => {
    for (const bad of UNREPRESENTABLE) {
      for (const name of ["start_date", "end_date", "date", "date_utc"]) {
        const res = await api(`${NS}/events`, { json: event({ [name]: bad }), headers: ADMIN });
        expectInvalid(res, [name], `${name}=${bad}`);
      }
    }
    const all = await api(`${NS}/events?start_date=1970-01-01&end_date=2999-12-31`, {
      headers: ADMIN,
    });
    expect(all.body.total).toBe(0);
  });

  it("an event update refuses them and leaves the event as it was", async () => {
    const id = await seedEvent({ title: "Kept", start: day(5) });
    for (const name of ["start_date", "end_date"]) {
      const res = await api(`${NS}/events/${id}`, {
        method: "PATCH",
        json: { [name]: "99999-01-01 10:00:00" },
        headers: ADMIN,
      });
      expectInvalid(res, [name], name);
    }
    const kept = await api(`${NS}/events/${id}`);
    expect(kept.body.start_date).toBe(day(5));
  });

  it("a wall-clock date whose UTC instant falls past year 9999 is refused too", async () => {
    const res = await api(`${NS}/events`, {
      json: event({
        start_date: "9999-12-31 22:00:00",
        end_date: "9999-12-31 23:00:00",
        timezone: "America/New_York",
      }),
      headers: ADMIN,
    });
    expectInvalid(res, ["start_date"], "9999-12-31 22:00 New York");
  });

  it("venues and organizers refuse them in date and date_utc", async () => {
    for (const [plural, kind] of [
      ["venues", "venue"],
      ["organizers", "organizer"],
    ]) {
      for (const name of ["date", "date_utc"]) {
        const res = await api(`${NS}/${plural}`, {
          json: { [kind]: `Place ${name}`, [name]: "99999-01-01 10:00:00" },
          headers: ADMIN,
        });
        expectInvalid(res, [name], `${plural} ${name}`);
      }
    }
  });

  it("every date filter of the lists refuses them", async () => {
    const filters: [string, string[]][] = [
      [
        "events",
        [
          "start_date",
          "end_date",
          "starts_before",
          "starts_after",
          "ends_before",
          "ends_after",
          "modified_after",
        ],
      ],
      ["events.ics", ["start_date", "end_date", "starts_after", "modified_after"]],
      ["venues", ["modified_after"]],
      ["organizers", ["modified_after"]],
      ["categories", ["modified_after"]],
      ["tags", ["modified_after"]],
      ["deleted", ["modified_after"]],
    ];
    for (const [route, names] of filters) {
      for (const name of names) {
        for (const bad of ["99999-01-01 10:00:00", "2026-02-30"]) {
          const res = await api(`${NS}/${route}?${name}=${encodeURIComponent(bad)}`);
          expectInvalid(res, [name], `${route}?${name}=${bad}`);
        }
      }
    }
  });

  it("the last representable dates and ordinary inputs still work", async () => {
    const res = await api(`${NS}/events`, {
      json: event({ start_date: "9999-12-31 10:00:00", end_date: "9999-12-31 23:59:59" }),
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.start_date).toBe("9999-12-31 10:00:00");
    expect(res.body.end_date).toBe("9999-12-31 23:59:59");
    const leap = await api(`${NS}/events`, {
      json: event({ start_date: "2028-02-29 10:00:00", end_date: "2028-02-29T11:30:00+00:00" }),
      headers: ADMIN,
    });
    expect(leap.status).toBe(201);
    expect(leap.body.utc_end_date).toBe("2028-02-29 11:30:00");
    for (const ok of ["2026-01-05", "tomorrow 9am", "+1 week", "1767225600", "2026-1-5"]) {
      expect((await api(`${NS}/events?start_date=${encodeURIComponent(ok)}`)).status, ok).toBe(200);
    }
  });
});
