/**
 * The hardening world (support/world.ts) is built once per worker and put back by its rows before
 * every later test that asks for it (test/support/restorable.ts): put back, the database
 * must be the one building left, search indexes included.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { freshStorage } from "../support/isolation";
import { restorable } from "../support/restorable";
import { contentDigest } from "./support/digest";
import { buildWorld } from "./support/world";

/** Ids a search as the administrator finds in `plural` (every status but trash). */
async function found(plural: string, query: string): Promise<number[]> {
  const path = `${NS}/${plural}?search=${query}&status=publish,draft,pending,private&start_date=2000-01-01`;
  const res = await api(path, { headers: ADMIN });
  return res.body[plural].map((p: { id: number }) => p.id);
}

/** Every row of every table (FTS5 shadow tables and id sequences too), and what search finds. */
async function state() {
  return {
    // The content version moves with every write, by design: not part of what was built.
    digest: await contentDigest(["content_version"]),
    events: await found("events", "secret"),
    venues: await found("venues", "street"),
  };
}

describe("the hardening world, put back by its rows", () => {
  it("is the database building left: every row, the id sequences and the search indexes", async () => {
    const built = await restorable("world.test", buildWorld);
    const before = await state();
    await freshStorage();
    const restored = await restorable("world.test", buildWorld);
    expect(restored).toEqual(built);
    expect(await state()).toEqual(before);
    expect(before.events.length).toBeGreaterThan(3);
    expect(before.venues.length).toBeGreaterThan(3);
  });
});
