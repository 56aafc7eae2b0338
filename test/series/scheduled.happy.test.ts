/**
 * The Cron Trigger (contract §7.8; wrangler.toml `[triggers] crons`): the scheduled handler keeps
 * every endless series materialized two years ahead of its run, so reads never expand a rule; what
 * it adds is a write anonymous readers see (the content version moves, the read cache answers anew)
 * and counts as changed for `modified_after`.
 */
import { createScheduledController } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { api, NS } from "../support/api";
import { createEvent } from "./support";

/** Runs the scheduled handler as the platform would at `at`. */
async function cron(at: DateTime) {
  await worker.scheduled(
    createScheduledController({ scheduledTime: at.toMillis(), cron: "17 3 * * *" }),
    env as never,
  );
}

/** The occurrences stored per series: how many, the last start. */
async function stored() {
  const { results } = await env.DB.prepare(
    "SELECT series_id AS series, count(*) AS n, max(occurrence_start) AS last FROM event_occurrences GROUP BY series_id ORDER BY series_id",
  ).all();
  return results as Array<{ series: number; n: number; last: string }>;
}

/** Every page of a list: each event's id and start. */
async function allListed(url: string): Promise<Array<[number, string]>> {
  const out: Array<[number, string]> = [];
  for (let page = 1; ; page++) {
    const res = await api(`${url}&page=${page}`);
    if (res.status === 404) return out;
    out.push(...res.body.events.map((e: any) => [e.id, e.start_date] as [number, string]));
  }
}

describe("the scheduled handler", () => {
  it("extends endless series to two years ahead of its run, leaves finished ones alone", async () => {
    const today = DateTime.utc().startOf("day");
    const first = today.plus({ days: 7 }).set({ hour: 19 });
    const weekly = await createEvent({
      title: "Weekly",
      start_date: first.toFormat("yyyy-MM-dd HH:mm:ss"),
      end_date: first.plus({ hours: 2 }).toFormat("yyyy-MM-dd HH:mm:ss"),
      recurrence: ["RRULE:FREQ=WEEKLY"],
    });
    const counted = await createEvent({
      title: "Counted",
      start_date: first.toFormat("yyyy-MM-dd HH:mm:ss"),
      end_date: first.plus({ hours: 1 }).toFormat("yyyy-MM-dd HH:mm:ss"),
      recurrence: ["RRULE:FREQ=MONTHLY;COUNT=3"],
    });
    const before = await stored();
    // Written two years (and a month) ahead: about 109 weeks.
    expect(before.find((s) => s.series === weekly.id)!.n).toBeGreaterThanOrEqual(104);
    expect(before.find((s) => s.series === counted.id)!.n).toBe(2);

    // Run today: nothing is due (the write's horizon is far enough).
    const version = async () =>
      (await env.DB.prepare("SELECT version FROM content_version WHERE id = 1").first<{
        version: number;
      }>())!.version;
    const v0 = await version();
    await cron(today);
    expect(await stored()).toEqual(before);
    expect(await version()).toBe(v0);

    // A year later: the weekly series reaches two years past that day; the counted one stays.
    const url = `${NS}/events?series=${weekly.id}&start_date=${today.toISODate()}&end_date=${today.plus({ years: 4 }).toISODate()}&per_page=50`;
    const cachedBefore = await api(url);
    const listedBefore = await allListed(url);
    expect(listedBefore).toHaveLength(cachedBefore.body.total);
    const later = today.plus({ days: 365 });
    await cron(later);
    const after = await stored();
    const w = after.find((s) => s.series === weekly.id)!;
    // (Its write stored two years past its first start, a week from today: 51 weeks more.)
    expect(w.n).toBeGreaterThanOrEqual(before.find((s) => s.series === weekly.id)!.n + 51);
    expect(w.last >= later.plus({ days: 730 }).toFormat("yyyy-MM-dd")).toBe(true);
    expect(after.find((s) => s.series === counted.id)).toEqual(
      before.find((s) => s.series === counted.id),
    );
    expect(await version()).toBeGreaterThan(v0);
    // Anonymous answers are read anew (a new content version, so a new key), and are the same:
    // the occurrences the run stored were listed before, computed, with the ids they keep
    // (contract §7.8: no horizon a reader sees).
    const cachedAfter = await api(url);
    expect(cachedAfter.body.total).toBe(cachedBefore.body.total);
    expect(cachedAfter.body.total).toBeGreaterThan(200);
    expect(await allListed(url)).toEqual(listedBefore);
    const lastPage = (await api(`${url}&page=${cachedAfter.body.total_pages}`)).body.events;
    expect(lastPage.at(-1).start_date >= today.plus({ years: 4, days: -7 }).toISODate()!).toBe(
      true,
    );
    // Each new occurrence is an event with an id of its own, changed since the run.
    const recent = await api(
      `${NS}/events?series=${weekly.id}&start_date=2000-01-01&end_date=${later.plus({ days: 800 }).toISODate()}&modified_after=${later.minus({ days: 1 }).toISODate()}&per_page=1`,
    );
    expect(recent.body.total).toBeGreaterThanOrEqual(51);
  });
});
