/**
 * The SQL of the per-post rights (src/db/post-access.ts) keeps exactly the rows the capability
 * checks allow (src/access/capabilities.ts `canReadPost`, `canEditPost`; §9.2): every role and
 * anonymous readers, against posts of every status (trashed ones from each earlier status), their
 * own, someone else's and nobody's.
 */
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AuthUser, canEditPost, canReadPost } from "../../src/access/capabilities";
import { ROLES } from "../../src/access/roles";
import { editablePosts, readablePosts } from "../../src/db/post-access";
import { venues } from "../../src/db/schema";
import { db, seedUser, seedVenue } from "../support/factories";

const STATUSES: Array<[string, string]> = [
  ["publish", ""],
  ["future", ""],
  ["draft", ""],
  ["pending", ""],
  ["private", ""],
  ["trash", "publish"],
  ["trash", "future"],
  ["trash", "private"],
  ["trash", "draft"],
  ["trash", ""],
];

describe("the SQL of read_post and edit_post (§9.2)", () => {
  it("keeps the rows canReadPost and canEditPost allow, for every role", async () => {
    const viewers: Array<AuthUser | null> = [null];
    for (const role of ROLES) {
      const { id } = await seedUser(role);
      viewers.push({ id, username: role, role });
    }
    const other = await seedUser("author", "someone-else");
    const rows: Array<{
      id: number;
      author: number | null;
      status: string;
      trashMetaStatus: string;
    }> = [];
    for (const viewer of viewers)
      for (const author of [viewer?.id ?? null, other.id, null])
        for (const [status, trashMetaStatus] of STATUSES) {
          const id = await seedVenue({
            title: `V ${rows.length}`,
            author,
            status,
            trashMetaStatus,
          });
          rows.push({ id, author, status, trashMetaStatus });
        }
    const ids = async (where: ReturnType<typeof readablePosts>) =>
      (
        await db()
          .select({ id: venues.id })
          .from(venues)
          .where(where ?? sql`1`)
      )
        .map((r) => r.id)
        .sort((a, b) => a - b);
    for (const viewer of viewers) {
      const who = viewer?.role ?? "anonymous";
      expect(await ids(readablePosts(venues, viewer)), `read ${who}`).toEqual(
        rows.filter((r) => canReadPost(viewer, r)).map((r) => r.id),
      );
      expect(await ids(editablePosts(venues, viewer)), `edit ${who}`).toEqual(
        rows.filter((r) => canEditPost(viewer, r)).map((r) => r.id),
      );
    }
  });
});
