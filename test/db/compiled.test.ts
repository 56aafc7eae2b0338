/**
 * src/db/compiled.ts: a statement compiled once per key is replayed on a later request's session
 * with the rows, the mapping (column modes) and the round trips of a statement built anew.
 */
import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { runBatch } from "../../src/db/batch";
import { openDb } from "../../src/db/client";
import { forgetStatements, reused } from "../../src/db/compiled";
import { contentVersion } from "../../src/db/schema";

describe("reused", () => {
  it("answers a replayed statement as the statement built anew, each on its own session", async () => {
    forgetStatements();
    const query = (db: ReturnType<typeof openDb>["db"], n: number) =>
      db
        .select({ n: sql<number>`${n} + 1`.mapWith(Number), version: contentVersion.version })
        .from(contentVersion)
        .where(eq(contentVersion.id, 1));
    let builds = 0;
    const read = async () => {
      const rdb = openDb(env.DB, { write: false });
      const { rows } = await runBatch(rdb.db, {
        rows: reused(rdb.db, "n=1", () => {
          builds++;
          return query(rdb.db, 1);
        }),
      });
      return { rows, trips: rdb.trips.count };
    };
    const direct = openDb(env.DB, { write: false });
    const { rows: expected } = await runBatch(direct.db, { rows: query(direct.db, 1) });
    expect(expected).toEqual([{ n: 2, version: expect.any(Number) }]);

    expect(await read()).toEqual({ rows: expected, trips: 1 });
    expect(await read()).toEqual({ rows: expected, trips: 1 });
    // Built once: the second request replayed the compiled text with its own session.
    expect(builds).toBe(1);
  });

  it("keeps one statement per key: another key is built on its own", async () => {
    forgetStatements();
    const rdb = openDb(env.DB, { write: false });
    const one = (n: number) =>
      reused(rdb.db, `n=${n}`, () => rdb.db.select({ n: sql<number>`${n}` }).from(contentVersion));
    const r = await runBatch(rdb.db, { a: one(1), b: one(2), c: one(1) });
    expect([r.a, r.b, r.c]).toEqual([[{ n: 1 }], [{ n: 2 }], [{ n: 1 }]]);
  });
});
