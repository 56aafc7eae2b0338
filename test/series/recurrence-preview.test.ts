/**
 * `GET /recurrence` (contract §7.8, preview of unsaved lines): the occurrences lines would give an
 * event with these dates — the same starts a created series then lists, the same refusals as a
 * `POST /events` with the same values (status, code, params, message, in both languages), the
 * create capability (anonymous 401, a contributor may), never cached, nothing written.
 */
import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ADMIN, type ApiResponse, api, NS, roundTrips } from "../support/api";
import { seedUser } from "../support/factories";
import { series } from "../support/rfc5545/generate";
import { createEvent, listed } from "./support";

/** The preview's query string for a create's body (`recurrence[]=…`, as qs reads it). */
function query(body: Record<string, unknown>, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) for (const item of value) q.append(`${key}[]`, String(item));
    else q.set(key, String(value));
  }
  for (const [key, value] of Object.entries(extra)) q.set(key, value);
  return q.toString();
}

function preview(
  body: Record<string, unknown>,
  headers: Record<string, string> = ADMIN,
  { lang = "", extra = {} }: { lang?: string; extra?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return api(`${lang}${NS}/recurrence?${query(body, extra)}`, { headers });
}

/** Rows of the tables a write could touch. */
async function counts() {
  return env.DB.prepare(
    "SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM event_occurrences) AS occurrences, (SELECT count(*) FROM posts) AS posts",
  ).first();
}

const WEEKLY = {
  start_date: "2027-03-02 19:00:00",
  end_date: "2027-03-02 21:00:00",
  timezone: "Europe/Berlin",
  recurrence: ["RRULE:FREQ=WEEKLY;COUNT=6", "EXDATE;TZID=Europe/Berlin:20270316T190000"],
};

const datesOf = (e: any) => [
  e.start_date,
  e.end_date,
  e.utc_start_date,
  e.utc_end_date,
  e.series?.original_start ?? e.original_start,
];

/** The preview's occurrences equal what the created series then lists. */
async function sameAsCreated(body: Record<string, unknown>, total: number | null) {
  const before = await counts();
  const res = await preview(body);
  expect(res.status, res.text).toBe(200);
  expect(await counts()).toEqual(before);
  const created = await createEvent(body);
  const events = await listed(`series=${created.id}`);
  expect(res.body.occurrences.map(datesOf)).toEqual(events.slice(0, 10).map(datesOf));
  expect(res.body.total).toBe(total);
  return res.body;
}

describe("GET /recurrence: the occurrences unsaved lines give", () => {
  it("weekly with COUNT and an EXDATE: the created series' starts, total 5", async () => {
    const body = await sameAsCreated(WEEKLY, 5);
    expect(body.occurrences.map((o: any) => o.start_date)).toEqual([
      "2027-03-02 19:00:00",
      "2027-03-09 19:00:00",
      "2027-03-23 19:00:00",
      "2027-03-30 19:00:00",
      "2027-04-06 19:00:00",
    ]);
  });

  it("across the change to summer time in Berlin: the wall clock stays, UTC moves", async () => {
    const body = await sameAsCreated(
      {
        start_date: "2027-03-23 19:00:00",
        end_date: "2027-03-23 20:00:00",
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=WEEKLY;UNTIL=20270406T170000Z"],
      },
      3,
    );
    expect(body.occurrences.map((o: any) => [o.utc_start_date, o.original_start])).toEqual([
      ["2027-03-23 18:00:00", "2027-03-23T19:00:00+01:00"],
      ["2027-03-30 17:00:00", "2027-03-30T19:00:00+02:00"],
      ["2027-04-06 17:00:00", "2027-04-06T19:00:00+02:00"],
    ]);
  });

  it("an all-day rule: whole days, the original start a date", async () => {
    const body = await sameAsCreated(
      {
        start_date: "2027-07-06",
        end_date: "2027-07-06",
        all_day: true,
        timezone: "Europe/Berlin",
        recurrence: ["RRULE:FREQ=MONTHLY;BYDAY=1TU;COUNT=3"],
      },
      3,
    );
    expect(body.occurrences.map((o: any) => [o.start_date, o.end_date, o.original_start])).toEqual([
      ["2027-07-06 00:00:00", "2027-07-06 23:59:59", "2027-07-06"],
      ["2027-08-03 00:00:00", "2027-08-03 23:59:59", "2027-08-03"],
      ["2027-09-07 00:00:00", "2027-09-07 23:59:59", "2027-09-07"],
    ]);
  });

  it("an endless rule: per_page occurrences (10 by default), total null; end_date optional", async () => {
    const body = { start_date: "2027-03-04 19:30:00", recurrence: ["RRULE:FREQ=WEEKLY"] };
    const res = await preview(body);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBeNull();
    expect(res.body.occurrences).toHaveLength(10);
    // Without end_date the event ends when it starts, as a write without one.
    expect(res.body.occurrences[0].end_date).toBe("2027-03-04 19:30:00");
    const three = await preview(body, ADMIN, { extra: { per_page: "3" } });
    expect(three.body.occurrences).toHaveLength(3);
    const over = await preview(body, ADMIN, { extra: { per_page: "101" } });
    expect([over.status, over.body.code, Object.keys(over.body.data.params)]).toEqual([
      400,
      "rest_invalid_param",
      ["per_page"],
    ]);
  });

  it("a yearly rule with COUNT past the stored two years: listed and counted to its end", async () => {
    const res = await preview({
      start_date: "2027-05-01 10:00:00",
      end_date: "2027-05-01 11:00:00",
      recurrence: ["RRULE:FREQ=YEARLY;COUNT=12"],
    });
    expect(res.body.total).toBe(12);
    expect(res.body.occurrences.map((o: any) => o.start_date.slice(0, 4))).toEqual(
      Array.from({ length: 10 }, (_, i) => String(2027 + i)),
    );
  });
});

describe("GET /recurrence refuses what POST /events refuses, in the same words", () => {
  const REFUSED: Array<Record<string, unknown>> = [
    { ...WEEKLY, recurrence: ["RRULE:FREQ=WEEKLY;BYHOUR=9"] },
    { ...WEEKLY, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20270309T080000"] },
    { ...WEEKLY, recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"] },
    { ...WEEKLY, recurrence: ["RRULE:FREQ=HOURLY"] },
    {
      start_date: "2024-01-01 09:00:00",
      end_date: "2024-01-01 10:00:00",
      recurrence: ["RRULE:FREQ=DAILY"],
    },
    { ...WEEKLY, start_date: "not a date" },
    { ...WEEKLY, timezone: "Mars/Olympus" },
  ];

  for (const lang of ["", "/de"])
    it(`each refusal equals the create's${lang ? " (German)" : ""}, nothing written`, async () => {
      for (const body of REFUSED) {
        const before = await counts();
        const res = await preview(body, ADMIN, { lang });
        const create = await api(`${lang}${NS}/events`, {
          headers: ADMIN,
          json: { title: "X", ...body },
        });
        expect(create.status, JSON.stringify(body)).toBe(400);
        expect([res.status, res.body], JSON.stringify(body)).toEqual([create.status, create.body]);
        expect(await counts()).toEqual(before);
      }
    });
});

describe("GET /recurrence: who may, and caches", () => {
  it("anonymous: the 401 a create gives, never cached", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await preview(WEEKLY, {});
      const create = await api(`${NS}/events`, { json: { title: "X", ...WEEKLY } });
      expect([res.status, res.body]).toEqual([401, create.body]);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("x-cache")).toBeNull();
    }
  });

  it("a contributor may (they create events); a subscriber may not (403)", async () => {
    const contributor = await seedUser("contributor");
    const res = await preview(WEEKLY, contributor.headers);
    expect(res.status, res.text).toBe(200);
    expect(res.body.occurrences).toHaveLength(5);
    expect(res.headers.get("cache-control")).toContain("no-store");
    // One D1 round trip: the signed-in user; the preview itself reads nothing.
    expect(roundTrips(res)).toBe(1);
    const subscriber = await seedUser("subscriber");
    const no = await preview(WEEKLY, subscriber.headers);
    const create = await api(`${NS}/events`, {
      headers: subscriber.headers,
      json: { title: "X", ...WEEKLY },
    });
    expect([no.status, no.body]).toEqual([403, create.body]);
  });

  it("is in /doc and the REST index", async () => {
    const doc = await api(`${NS}/doc`);
    expect(doc.body.paths["/recurrence"].get.responses["200"]).toBeDefined();
    const index = await api("/wp-json/");
    const route = index.body.routes["/tribe/events/v1/recurrence"];
    expect(Object.keys(route.endpoints[0].args)).toEqual(
      expect.arrayContaining(["start_date", "end_date", "recurrence", "per_page"]),
    );
  });
});

describe("GET /recurrence = POST /events, generated series", () => {
  it("the same refusal, or the same first starts as the created series lists", async () => {
    const checked = { refused: 0, created: 0 };
    // Each generated series as sent, and without its BY… parts (a rule that always gives its start).
    const generated = fc.sample(series, { numRuns: 16, seed: 20261129 }).flatMap((g) => [
      g,
      {
        ...g,
        lines: g.lines.map((l) =>
          l.startsWith("RRULE:") ? l.replace(/;(BY[A-Z]+|WKST)=[^;]*/g, "") : l,
        ),
      },
    ]);
    for (const g of generated) {
      const end = new Date(`${g.start.replace(" ", "T")}Z`);
      end.setUTCMinutes(end.getUTCMinutes() + g.minutes);
      const body = {
        start_date: g.start,
        end_date: end.toISOString().slice(0, 19).replace("T", " "),
        all_day: g.allDay,
        timezone: g.zone,
        recurrence: g.lines,
      };
      const res = await preview(body);
      const create = await api(`${NS}/events`, { headers: ADMIN, json: { title: "G", ...body } });
      const what = JSON.stringify(g);
      if (create.status !== 201) {
        checked.refused++;
        expect([res.status, res.body], what).toEqual([create.status, create.body]);
        continue;
      }
      checked.created++;
      expect(res.status, what).toBe(200);
      const listed = await api(
        `${NS}/events/${create.body.id}/instances?start_date=1900-01-01&end_date=2999-12-31&per_page=10`,
      );
      // A list computes at most ten years ahead (contract §7.8); the preview lists the rule's own.
      const shown = listed.body.events.map(datesOf);
      expect(shown.length, what).toBeGreaterThan(0);
      expect(res.body.occurrences.slice(0, shown.length).map(datesOf), what).toEqual(shown);
      if (res.body.total !== null && res.body.total <= 50) {
        const all = await api(
          `${NS}/events/${create.body.id}/instances?start_date=1900-01-01&end_date=2999-12-31&per_page=50`,
        );
        expect(res.body.total, what).toBe(all.body.total);
      }
    }
    expect(checked.refused + checked.created).toBe(32);
    expect(checked.created).toBeGreaterThan(8);
  });
});
