/**
 * The one write sequence (src/db/write-pipeline.ts, contract §2): every write of an event, a series
 * and its occurrences, a venue, an organizer and a term reads, plans and then writes in one batch
 * that also reads back what it wrote — its D1 round trips are pinned here per route — and a batch
 * that lost a race runs again from its reads.
 */
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import * as schema from "../../src/db/schema";
import { deletedTerms } from "../../src/db/schema";
import { unlessChanged } from "../../src/db/write";
import { answerOnly, runWrite, writeThen } from "../../src/db/write-pipeline";
import { ADMIN, type ApiResponse, api, NS, roundTrips } from "../support/api";

/** A write as the administrator: its status and D1 round trips. */
async function write(path: string, method: string, json?: Record<string, unknown>) {
  const res: ApiResponse = await api(`${NS}${path}`, { method, headers: ADMIN, json });
  return { status: res.status, trips: roundTrips(res), body: res.body };
}

describe("the D1 round trips of each write (parse → load → plan → one batch → answer)", () => {
  it("events: create, update, an update that changes nothing, trash, delete", async () => {
    const created = await write("/events", "POST", {
      title: "Pinned",
      start_date: "2027-05-01 10:00:00",
      end_date: "2027-05-01 11:00:00",
    });
    const id = created.body.id;
    expect(
      [
        created,
        await write(`/events/${id}`, "PATCH", { title: "Pinned again" }),
        await write(`/events/${id}`, "PATCH", { title: "Pinned again" }),
        await write(`/events/${id}`, "DELETE"),
        await write(`/events/${id}?force=true`, "DELETE"),
      ].map(({ status, trips }) => [status, trips]),
    ).toEqual([
      [201, 3],
      [200, 2],
      [200, 1],
      [200, 2],
      [200, 2],
    ]);
  });

  it("series: create, an override, a revert, a split, an occurrence's delete", async () => {
    const created = await write("/events", "POST", {
      title: "Weekly",
      start_date: "2027-05-03 18:00:00",
      end_date: "2027-05-03 19:00:00",
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=10"],
    });
    const list = await api(`${NS}/events/${created.body.id}/instances?per_page=50`);
    const [, second, third, fourth] = list.body.events.map((e: { id: number }) => e.id);
    expect(
      [
        created,
        await write(`/events/${second}`, "PATCH", { title: "Moved" }),
        await write(`/events/${second}`, "PATCH", { revert: true }),
        await write(`/events/${fourth}`, "PATCH", { title: "Later", scope: "following" }),
        await write(`/events/${third}`, "DELETE"),
      ].map(({ status, trips }) => [status, trips]),
    ).toEqual([
      [201, 3],
      [200, 2],
      [200, 4],
      [200, 2],
      [200, 2],
    ]);
  });

  it("venues and terms: create, update, trash or delete", async () => {
    const venue = await write("/venues", "POST", { venue: "Pinned Hall" });
    const category = await write("/categories", "POST", { name: "Pinned" });
    expect(
      [
        venue,
        await write(`/venues/${venue.body.id}`, "PATCH", { city: "Springfield" }),
        await write(`/venues/${venue.body.id}`, "DELETE"),
        category,
        await write(`/categories/${category.body.id}`, "PATCH", { description: "Pinned" }),
        await write(`/categories/${category.body.id}`, "DELETE"),
      ].map(({ status, trips }) => [status, trips]),
    ).toEqual([
      [201, 3],
      [200, 2],
      [200, 2],
      [201, 3],
      [200, 2],
      [200, 2],
    ]);
  });
});

/** A D1 that counts the batches sent to it. */
function counting(): { d1: D1Database; batches: () => number } {
  let batches = 0;
  const d1 = new Proxy(env.DB, {
    get(target, name) {
      if (name === "batch")
        return (statements: D1PreparedStatement[]) => {
          batches++;
          return target.batch(statements);
        };
      const value = Reflect.get(target, name);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1, batches: () => batches };
}

describe("runWrite", () => {
  it("parses once, and runs load and plan again when the batch lost a race", async () => {
    const { d1, batches } = counting();
    const db = drizzle(d1, { schema });
    let parsed = 0;
    let loads = 0;
    const answer = await runWrite(db, {
      parse: () => ++parsed,
      load: () => ++loads,
      // The first round's guard does not hold (a conflict); the second writes nothing and answers.
      plan: (_, round) =>
        round === 1
          ? writeThen([unlessChanged(db, sql`0`)], undefined, () => "written")
          : answerOnly(() => `round ${round}`),
    });
    expect({ parsed, loads, answer, batches: batches() }).toEqual({
      parsed: 1,
      loads: 2,
      answer: "round 2",
      batches: 1,
    });
  });

  it("sends the statements and the reload as one batch, and answers from the reload", async () => {
    const { d1, batches } = counting();
    const db = drizzle(d1, { schema });
    const stamp = "2027-01-01 00:00:00";
    const answer = await runWrite(db, {
      parse: () => null,
      load: () => null,
      plan: () =>
        writeThen(
          [
            db
              .insert(deletedTerms)
              .values({ id: 999_999, taxonomy: "post_tag", deletedGmt: stamp }),
          ],
          db.select().from(deletedTerms).where(eq(deletedTerms.id, 999_999)),
          (rows) => rows.map((r) => r.deletedGmt),
        ),
    });
    expect({ answer, batches: batches() }).toEqual({ answer: [stamp], batches: 1 });
  });

  it("answers a plan that writes nothing without a batch", async () => {
    const { d1, batches } = counting();
    const answer = await runWrite(drizzle(d1, { schema }), {
      parse: () => 1,
      load: (n) => n + 1,
      plan: (n, m) => answerOnly(() => n + m),
    });
    expect({ answer, batches: batches() }).toEqual({ answer: 3, batches: 0 });
  });
});
