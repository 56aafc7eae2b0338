/**
 * The venue and organizer lists' filters that read linked events (`has_events`,
 * `only_with_upcoming`; `event` in event-filter.security.test.ts) count only events the viewer
 * may read (§7.1, §9.2): an event that is private, scheduled or trashed is, to anonymous readers
 * and subscribers, an event that does not exist; its author and editors see it count. The list,
 * its `total` and `X-WP-Total` agree.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";
import { KINDS, seedLinked } from "./kinds";

/** Event statuses a subscriber may not read (`draft` and `pending` never count for `has_events`). */
const HIDDEN = ["draft", "pending", "private", "trash", "future"] as const;

describe.each(KINDS)("GET /$plural: events the viewer may not read do not count", (k) => {
  it("has_events and only_with_upcoming, for each hidden status", async () => {
    const { kind, plural } = k;
    const owner = await seedUser("author", "owner");
    const subscriber = await seedUser("subscriber");
    const editor = await seedUser("editor");
    const posts = new Map<string, number>();
    for (const [i, status] of HIDDEN.entries()) {
      const id = await seedLinked(kind, {
        title: `Linked to ${status}`,
        postDate: `2026-01-0${i + 1} 00:00:00`,
      });
      posts.set(status, id);
      await seedEvent({
        title: `Event ${status}`,
        start: day(5),
        status,
        author: owner.id,
        ...(kind === "venue" ? { venueId: id } : { organizerIds: [id] }),
      });
    }
    const ids = async (query: string, headers: Record<string, string>, what: string) => {
      const res = await api(`${NS}/${plural}?${query}`, { headers });
      expect(res.status, `${what} ${query}: ${res.text}`).toBe(200);
      expect(res.body.total, `${what} ${query}`).toBe(Number(res.headers.get("x-wp-total")));
      expect(res.body.total, `${what} ${query}`).toBe(res.body[plural].length);
      return res.body[plural]
        .map((p: { id: number }) => p.id)
        .sort((a: number, b: number) => a - b);
    };
    const of = (...statuses: string[]) => statuses.map((s) => posts.get(s)!).sort((a, b) => a - b);
    const everything = of(...HIDDEN);
    const counted = of("private", "trash", "future");
    const upcoming = of("draft", "pending", "private", "future");
    for (const [what, headers, reads] of [
      ["anonymous", {}, "none"],
      ["subscriber", subscriber.headers, "none"],
      ["owner", owner.headers, "own"],
      ["editor", editor.headers, "all"],
      ["administrator", ADMIN, "all"],
    ] as const) {
      // The owner reads their own private, scheduled and trashed events as editors read everyone's.
      const seen = reads === "none" ? [] : counted;
      expect(await ids("has_events=true", headers, what)).toEqual(seen);
      expect(await ids("has_events=false", headers, what)).toEqual(
        everything.filter((id) => !seen.includes(id)),
      );
      expect(await ids("only_with_upcoming=1", headers, what)).toEqual(
        reads === "none" ? [] : upcoming,
      );
    }
  });
});
