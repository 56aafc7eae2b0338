/**
 * drizzle/0019_sync_log.sql on a calendar that already has data (contract §7.3): what had left it
 * before — trashed posts, the occurrences of a trashed series, permanent deletions of posts and
 * terms — is in `/deleted` at position 0 with its times, for the readers who saw it then; the
 * sync clock starts at 0 and the first change after the migration is logged.
 */
import { reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { forgetVersion } from "../../src/read-cache/version";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedTerm, seedVenue } from "../support/factories";

/** Applies the migrations whose name passes `which`, in order, each in one batch. */
async function migrate(which: (name: string) => boolean) {
  for (const m of env.TEST_MIGRATIONS.filter((m) => which(m.name)))
    await env.DB.batch(m.queries.map((q) => env.DB.prepare(q)));
}

it("puts what left before the migration into /deleted at position 0, for those who saw it", async () => {
  // The database as the migrations before this one left it (the next test starts afresh: the
  // schema differs from the snapshot's, test/support/isolation.ts).
  await reset();
  // (The later migrations only add columns, which the factories write: applied before it.)
  await migrate((name) => !name.startsWith("0019"));
  const published = await seedEvent({ title: "Was public", start: day(3) });
  const draft = await seedEvent({ title: "Was a draft", start: day(3), status: "draft" });
  const venue = await seedVenue({ title: "Old Hall" });
  const gone = await seedVenue({ title: "Gone Hall" });
  const tag = await seedTerm("post_tag", "gone");
  await env.DB.batch([
    env.DB.prepare(
      "UPDATE events SET trash_meta_status = status, status = 'trash', changed_gmt = '2026-10-01 10:00:00' WHERE id IN (?, ?)",
    ).bind(published, draft),
    env.DB.prepare(
      "UPDATE venues SET trash_meta_status = 'publish', status = 'trash', changed_gmt = '2026-10-02 10:00:00' WHERE id = ?",
    ).bind(venue),
    env.DB.prepare("UPDATE posts SET deleted_gmt = '2026-10-03 10:00:00' WHERE id = ?").bind(gone),
    env.DB.prepare("DELETE FROM venues WHERE id = ?").bind(gone),
    env.DB.prepare(
      "INSERT INTO deleted_terms (id, taxonomy, deleted_gmt) VALUES (?, 'post_tag', '2026-10-04 10:00:00')",
    ).bind(tag),
    env.DB.prepare("DELETE FROM terms WHERE id = ?").bind(tag),
  ]);
  await migrate((name) => name.startsWith("0019"));
  await api(`${NS}/doc`); // the strings are in KV already (the setup put them)
  forgetVersion();

  const entries = (body: any) =>
    body.deleted.map((d: any) => [d.type, d.id, d.status, d.deleted_utc, d.sync_cursor]);
  const anonymous = await api(`${NS}/deleted`);
  expect(entries(anonymous.body)).toEqual([
    ["event", published, "trash", "2026-10-01 10:00:00", 0],
    ["venue", venue, "trash", "2026-10-02 10:00:00", 0],
    ["venue", gone, "deleted", "2026-10-03 10:00:00", 0],
    ["tag", tag, "deleted", "2026-10-04 10:00:00", 0],
  ]);
  expect(anonymous.headers.get("x-tec-sync-cursor")).toBe("0");
  const editor = await api(`${NS}/deleted`, { headers: ADMIN });
  expect(entries(editor.body).map((e: unknown[]) => e[1])).toEqual([
    published,
    draft,
    venue,
    gone,
    tag,
  ]);
  // A client that starts now (cursor 0) is told nothing of them; the first change is position 1.
  expect((await api(`${NS}/deleted?sync_cursor=0`)).body.deleted).toEqual([]);
  await api(`${NS}/venues/${venue}`, {
    method: "PATCH",
    headers: ADMIN,
    json: { status: "publish" },
  });
  const back = await api(`${NS}/venues?sync_cursor=0`);
  expect(back.body.venues.map((v: any) => v.id)).toEqual([venue]);
  expect(back.headers.get("x-tec-sync-cursor")).toBe("1");
});
