/**
 * Concurrency. The local D1 runs one statement at a time, but a write's read batch
 * and its write batch are separate round trips, so parallel requests interleave between them
 * exactly as in production; optimistic id allocation, unique slugs and `withWriteRetry` must hold.
 * Where a race needs a precise interleaving, the request's D1 session is gated so that its write
 * batch waits until the competing request has finished.
 */

import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedVenue } from "../support/factories";
import { call, ORIGIN } from "./support/client";
import { contentDigest } from "./support/digest";

const json = (
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = ADMIN,
) =>
  new Request(`${ORIGIN}${NS}${path}`, {
    method,
    headers: { ...headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: "2027-05-01 10:00:00",
  end_date: "2027-05-01 11:00:00",
  ...extra,
});
const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...binds)
    .first<{ n: number }>())!.n;

/**
 * An environment whose D1 sessions hold the `nth` batch of the request (1 = its first round trip)
 * until `release` is called; `reached` resolves when that batch is waiting.
 */
function gated(nth: number) {
  let release!: () => void;
  let arrived!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (arrived = r));
  let batches = 0;
  const wrap = <T extends object>(
    target: T,
    intercept: (key: PropertyKey, value: unknown) => unknown,
  ): T =>
    new Proxy(target, {
      get(t, key) {
        const value = Reflect.get(t, key);
        const replaced = intercept(key, value);
        if (replaced !== undefined) return replaced;
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  const DB = wrap(env.DB, (key, value) => {
    if (key !== "withSession") return undefined;
    return (constraint: string) => {
      const session = (value as (c: string) => D1DatabaseSession).call(env.DB, constraint);
      return wrap(session, (k, v) =>
        k === "batch"
          ? async (statements: D1PreparedStatement[]) => {
              if (++batches === nth) {
                arrived();
                await gate;
              }
              return (v as (s: D1PreparedStatement[]) => Promise<unknown>).call(
                session,
                statements,
              );
            }
          : undefined,
      );
    };
  });
  return { env: { ...env, DB }, release, reached };
}

describe("parallel creates", () => {
  it("parallel creates with the same title get distinct ids and slugs", async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => call(json("POST", "/events", event("Rush Hour")))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    const slugs = answers.map((a) => a.body.slug).sort();
    expect(new Set(slugs).size).toBe(12);
    expect(slugs).toContain("rush-hour");
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(12);
    expect(await count("SELECT count(*) n FROM events WHERE title = 'Rush Hour'")).toBe(12);
  });

  it("parallel venue and organizer creates with the same name yield one of each", async () => {
    for (const [plural, kind] of [
      ["venues", "venue"],
      ["organizers", "organizer"],
    ] as const) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => call(json("POST", `/${plural}`, { [kind]: "Same Name" }))),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(201));
      expect(new Set(answers.map((a) => a.body.id)).size).toBe(1);
      expect(await count(`SELECT count(*) n FROM ${plural} WHERE lower(title) = 'same name'`)).toBe(
        1,
      );
    }
  });

  it("parallel event creates naming the same new venue, organizer, category and tag share one of each", async () => {
    const body = (i: number) =>
      event(`Shared ${i}`, {
        venue: { venue: "Shared Hall" },
        organizer: [{ organizer: "Shared Org" }],
        categories: ["Shared Cat"],
        tags: "shared-tag",
      });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => call(json("POST", "/events", body(i)))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.body.venue.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.organizer[0].id)).size).toBe(1);
    expect(await count("SELECT count(*) n FROM venues WHERE title = 'Shared Hall'")).toBe(1);
    expect(await count("SELECT count(*) n FROM organizers WHERE title = 'Shared Org'")).toBe(1);
    expect(
      await count("SELECT count(*) n FROM terms WHERE name IN ('Shared Cat', 'shared-tag')"),
    ).toBe(2);
    expect(await count("SELECT count n FROM terms WHERE name = 'Shared Cat'")).toBe(8);
  });

  it("parallel term and user creates never hand out one id or slug twice", async () => {
    const terms = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(json("POST", "/categories", { name: `Cat ${i}`, slug: "same-slug" })),
      ),
    );
    expect(terms.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(terms.map((a) => a.body.id)).size).toBe(8);
    expect(new Set(terms.map((a) => a.body.slug)).size).toBe(8);
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(
          new Request(`${ORIGIN}/wp-json/wp/v2/users`, {
            method: "POST",
            headers: { ...ADMIN, "content-type": "application/json" },
            body: JSON.stringify({
              username: `racer${i}`,
              email: `r${i}@example.com`,
              password: "pw",
              slug: "racer",
            }),
          }),
        ),
      ),
    );
    expect(users.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(new Set(users.map((a) => a.body.slug)).size).toBe(6);
  });
});

describe("a write that fails half-way leaves nothing behind", () => {
  const cases: Array<[string, string, () => Promise<Request>]> = [
    [
      "event create (organizer links fail)",
      "BEFORE INSERT ON event_organizers",
      async () =>
        json(
          "POST",
          "/events",
          event("Atomic", {
            venue: { venue: "Atomic Hall" },
            organizer: [{ organizer: "Atomic Org" }],
            categories: ["Atomic"],
          }),
        ),
    ],
    [
      "event update (term links fail)",
      "BEFORE INSERT ON event_terms",
      async () =>
        json("PATCH", `/events/${await seedEvent({ title: "E", start: day(1) })}`, {
          title: "Changed",
          venue: { venue: "New Hall" },
          tags: ["new-tag"],
        }),
    ],
    [
      "event trash (term recount fails)",
      "BEFORE UPDATE OF count ON terms",
      async () =>
        json(
          "DELETE",
          `/events/${await seedEvent({ title: "E", start: day(1), termIds: [await seedTerm("post_tag", "t")] })}`,
        ),
    ],
    [
      "venue create (the venue row fails after its id)",
      "BEFORE INSERT ON venues",
      async () => json("POST", "/venues", { venue: "Half Hall" }),
    ],
    [
      "organizer trash (unlinking fails)",
      "BEFORE DELETE ON event_organizers",
      async () => {
        const org = await seedOrganizer({ title: "O" });
        await seedEvent({ title: "E", start: day(1), organizerIds: [org] });
        return json("DELETE", `/organizers/${org}`);
      },
    ],
    [
      "venue permanent delete (tombstone fails)",
      "BEFORE UPDATE OF deleted_gmt ON posts",
      async () => json("DELETE", `/venues/${await seedVenue({ title: "V" })}?force=true`),
    ],
  ];
  it.each(cases)("%s", async (_, when, make) => {
    const request = await make();
    await env.DB.exec(
      `CREATE TRIGGER injected_failure ${when} BEGIN SELECT RAISE(ABORT, 'injected failure'); END;`,
    );
    // Ids a failing write reserved are gone, like any database sequence's after a rollback
    // (src/db/ids.ts): everything else must be exactly as before.
    const sequence = () =>
      env.DB.prepare("SELECT name, next FROM id_sequences ORDER BY name").all();
    const before = await contentDigest(["id_sequences"]);
    const sequencesBefore = (await sequence()).results as Array<{ next: number }>;
    const answer = await call(request);
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      code: "rest_internal_error",
      message: "The server could not complete the request.",
      data: { status: 500 },
    });
    expect(answer.text).not.toMatch(/injected|SQLITE|D1_/);
    expect(await contentDigest(["id_sequences"])).toBe(before);
    // The sequences only ever move forward: a later write never reuses an id.
    const sequencesAfter = (await sequence()).results as Array<{ next: number }>;
    for (const [i, row] of sequencesAfter.entries()) {
      expect(row.next).toBeGreaterThanOrEqual(sequencesBefore[i].next);
    }
  });
});

describe("a delete racing an update never resurrects a trashed item", () => {
  it("an update of a trashed event or venue changes what it names, never the status", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    expect((await call(json("DELETE", `/events/${id}`))).body.status).toBe("trash");
    const updated = await call(
      json("PATCH", `/events/${id}`, { title: "Edited in the trash", featured: true }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ title: "Edited in the trash", status: "trash" });
    const venue = await seedVenue({ title: "V" });
    await call(json("DELETE", `/venues/${venue}`));
    expect((await call(json("PUT", `/venues/${venue}`, { city: "Elsewhere" }))).body).toMatchObject(
      { status: "trash", city: "Elsewhere" },
    );
  });

  it("an update whose read came before the trash and whose write came after keeps the event trashed", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const g = gated(2); // the update's write batch
    const pending = worker.fetch(
      json("PATCH", `/events/${id}`, { title: "Late edit" }),
      g.env as never,
      createExecutionContext(),
    );
    await g.reached;
    expect((await call(json("DELETE", `/events/${id}`))).body.status).toBe("trash");
    g.release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: "Late edit", status: "trash" });
    expect(
      (await env.DB.prepare("SELECT status FROM events WHERE id = ?")
        .bind(id)
        .first<{ status: string }>())!.status,
    ).toBe("trash");
  });

  it("an update whose event is permanently deleted before its write answers 404 and re-creates nothing", async () => {
    const bodies = [
      { title: "Ghost" },
      {
        title: "Ghost",
        venue: { venue: "Ghost Hall" },
        organizer: [{ organizer: "Ghost Org" }],
        categories: ["Ghost Cat"],
      },
    ];
    for (const body of bodies) {
      const id = await seedEvent({ title: `E ${JSON.stringify(body).length}`, start: day(1) });
      const g = gated(2);
      const pending = worker.fetch(
        json("PATCH", `/events/${id}`, body),
        g.env as never,
        createExecutionContext(),
      );
      await g.reached;
      expect((await call(json("DELETE", `/events/${id}?force=true`))).body.deleted).toBe(true);
      g.release();
      const res = await pending;
      expect(res.status).toBe(404);
      expect(((await res.json()) as { code: string }).code).toBe("rest-event-not-found");
      for (const table of ["events", "event_organizers", "event_terms"]) {
        expect(
          await count(
            `SELECT count(*) n FROM ${table} WHERE ${table === "events" ? "id" : "event_id"} = ?`,
            id,
          ),
        ).toBe(0);
      }
    }
    expect(await count("SELECT count(*) n FROM venues WHERE title = 'Ghost Hall'")).toBe(0);
    expect(await count("SELECT count(*) n FROM terms WHERE name = 'Ghost Cat'")).toBe(0);
  });

  it("a venue update racing its trash keeps it trashed and unlinked", async () => {
    const venue = await seedVenue({ title: "V" });
    const ev = await seedEvent({ title: "E", start: day(1), venueId: venue });
    const g = gated(2);
    const pending = worker.fetch(
      json("PATCH", `/venues/${venue}`, { city: "Late" }),
      g.env as never,
      createExecutionContext(),
    );
    await g.reached;
    expect((await call(json("DELETE", `/venues/${venue}`))).body.status).toBe("trash");
    g.release();
    const res = await pending;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: "trash", city: "Late" });
    expect(
      (await env.DB.prepare("SELECT venue_id v FROM events WHERE id = ?")
        .bind(ev)
        .first<{ v: number | null }>())!.v,
    ).toBeNull();
  });

  it("many updates and deletes in flight at once: every trashed event stays trashed, nothing is orphaned", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await seedEvent({ title: `E${i}`, start: day(1) }));
    const answers = await Promise.all(
      ids.flatMap((id, i) => [
        call(
          json("PATCH", `/events/${id}`, {
            title: `Edit ${i}`,
            organizer: [{ organizer: `Org ${i}` }],
          }),
        ),
        call(json("DELETE", `/events/${id}${i % 2 ? "?force=true" : ""}`)),
        call(json("PATCH", `/events/${id}`, { excerpt: `Excerpt ${i}` })),
      ]),
    );
    for (const a of answers) expect([200, 404, 410], JSON.stringify(a.body)).toContain(a.status);
    for (const [i, id] of ids.entries()) {
      const row = await env.DB.prepare("SELECT status FROM events WHERE id = ?")
        .bind(id)
        .first<{ status: string }>();
      if (i % 2) expect(row).toBeNull();
      else expect(row!.status).toBe("trash");
    }
    expect(
      await count(
        "SELECT count(*) n FROM event_organizers WHERE event_id NOT IN (SELECT id FROM events)",
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*) n FROM event_terms WHERE event_id NOT IN (SELECT id FROM events)",
      ),
    ).toBe(0);
  });
});
