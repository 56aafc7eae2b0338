/**
 * Filters reveal nothing the answer hides (tec-reference §6.3, §4.7, §9.2; contract §4): the one
 * rule by which every filter that reads an event or what it links to sees only what the viewer's
 * answer shows — the event archive, the iCalendar feed and the occurrences of series
 * (src/events/filters.ts), and the event links of the venue and organizer lists
 * (src/linked-posts/filters.ts).
 *
 * 1. **A linked post the viewer may not read** (`canReadPost`, as SQL: src/db/post-access.ts) —
 *    a draft, pending, private, scheduled or trashed venue, organizer or event of someone else —
 *    does not exist for a filter: nothing matches by it, and naming it is the 400 of an id nobody
 *    has. The event's answer shows no such post either (src/events/load.ts `assemble`).
 * 2. **A field password protection blanks** (the contracts' `blank`: src/events/contract.ts,
 *    src/linked-posts/venue.ts, src/linked-posts/organizer.ts) matches only when the answer shows
 *    it: the post has no password, the request's `password` opens it, or the viewer may edit it
 *    and asks with `context=edit` (the list rule of §4.7, src/events/list.ts `protectedAccess`).
 *    A linked post's field shows only when the event's fields do as well (a blanked event blanks
 *    its venue and organizers, src/events/visible.ts). A blanked value is neither there nor
 *    missing: a filter on it does not match, whichever value it asks for.
 *
 * What each filter reads is declared once (`READS`); whether a field is blanked comes from the
 * contracts, so that a field that becomes protected is hidden from its filter too. `search` keeps
 * its own rule (src/db/sql.ts `searchablePasswords`, §6.3): a protected event takes part, whatever
 * field the words are in, only for readers who may open it — the request's password, its author,
 * editors — as WordPress searches.
 */
import { and, eq, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AuthUser } from "../access/capabilities";
import type { Db } from "../db/client";
import { editablePosts, readableByIndex } from "../db/post-access";
import { events, organizers, venues } from "../db/schema";
import type { WireFields } from "../http/contract";
import { ORGANIZER_FIELDS } from "../linked-posts/organizer";
import { VENUE_FIELDS } from "../linked-posts/venue";
import { EVENT_FIELDS } from "./contract";

/** The posts a filter may read through an event: the event's own fields, its links. */
type Post = "event" | "venue" | "organizer";

/** A post an event links to. */
type LinkedPost = Exclude<Post, "event">;

/** What a filter reads, per post: wire names of its fields (`[]`: the link alone, by id). */
type Reads = Partial<Record<Post, readonly string[]>>;

/** The wire names of the fields stored in these columns. */
const stored = (fields: WireFields, ...columns: string[]) =>
  Object.entries(fields).flatMap(([name, f]) => (columns.includes(f.column ?? "") ? [name] : []));

const COORDINATES = stored(VENUE_FIELDS, "geoLat", "geoLng");

/** What each event filter reads of an event's answer (by `EventFilters` key; §6.3). */
const READS = {
  categories: { event: ["categories"] },
  tags: { event: ["tags"] },
  featured: { event: ["featured"] },
  ticketed: { event: ["ticketed"] },
  venue: { venue: [] },
  organizer: { organizer: [] },
  geoloc: { venue: COORDINATES },
  near: { venue: COORDINATES },
} satisfies Record<string, Reads>;

/** A filter the rule knows. */
export type ReadingFilter = keyof typeof READS;

const FIELDS: Record<Post, WireFields> = {
  event: EVENT_FIELDS,
  venue: VENUE_FIELDS,
  organizer: ORGANIZER_FIELDS,
};

const TABLES = { event: events, venue: venues, organizer: organizers };

/**
 * Per filter, the posts of which it reads a field password protection blanks, worked out once from
 * the contracts at start-up (throws for a field a contract does not declare).
 */
const HIDES: Record<string, ReadonlySet<Post>> = Object.fromEntries(
  Object.entries(READS).map(([name, reads]: [string, Reads]) => {
    const posts = (Object.keys(reads) as Post[]).filter((post) =>
      (reads[post] ?? []).some((field) => {
        const f = FIELDS[post][field];
        if (!f) throw new Error(`filter ${name} reads unknown field ${post}.${field}`);
        return f.blank !== undefined;
      }),
    );
    return [name, new Set(posts)];
  }),
);

/** Who filters: what decides which posts a filter may read and which protected fields it sees. */
export interface FilterViewer {
  user: AuthUser | null;
  /** SHA-256 hex of the request's `password`; `""` for none. */
  password: string;
  /** The request asked for `context=edit` (§4.7). */
  editContext: boolean;
}

/** What one filter may see, for one viewer. */
export interface FilterScope {
  /**
   * The condition that the event answer shows what the filter reads of the event and its linked
   * posts (asked by the event's id only: an occurrence asks by its series' id); undefined: always.
   */
  event(id: SQLWrapper): SQL | undefined;
  /**
   * The ids of the linked posts of a kind the filter may match — the viewer may read them, and
   * sees what the filter reads of them — narrowed by `where` (a subquery for `IN`).
   */
  linked(post: LinkedPost, where?: SQL): SQLWrapper;
}

/**
 * The rule for one request: conditions to add to the SQL of the filters (none reads a row more
 * per event: the protected events' ids come from their own small index, drizzle/0017).
 * @param viewer the request's user, its `password` digest and whether it asked for `context=edit`.
 * @example
 * const rule = filterRule(db, { user: null, password: "", editContext: false });
 * inArray(events.venueId, rule.scope("geoloc").linked("venue", located)) // published, unprotected venues
 */
export function filterRule(db: Db, viewer: FilterViewer) {
  const { user, password, editContext } = viewer;
  /** Rows of a post table whose protected fields the viewer sees (§4.7 list rule). */
  const opened = (t: (typeof TABLES)[Post]) => {
    const edits = editContext ? editablePosts(t, user) : undefined;
    if (editContext && edits === undefined) return undefined;
    return or(
      eq(t.passwordDigest, ""),
      password ? eq(t.passwordDigest, password) : undefined,
      edits,
    );
  };
  // Whether the viewer may read a row is checked on the rows the filter's own condition finds,
  // by their own index (src/db/post-access.ts `readableByIndex`).
  const readable = (post: Post) => readableByIndex(TABLES[post], user);
  // Protected events are few: their ids come from a small partial index, so that asking by id
  // keeps every archive index covering (a count never reads the events' rows).
  const openEvents = opened(events);
  const closedEvents =
    openEvents &&
    db
      .select({ id: events.id })
      .from(events)
      .where(and(sql`${events.passwordDigest} <> ''`, sql`NOT ${openEvents}`));
  return {
    /**
     * The condition on a post table that the viewer may read the row (rule 1): what an existence
     * check of a filter's ids adds (`post_parent`: of `event`), and what a venue's or organizer's
     * events must meet to count for it; undefined: every row.
     */
    readable,
    /** What filter `name` may see. */
    scope(name: ReadingFilter): FilterScope {
      // A blanked event blanks what it shows of its links too (src/events/visible.ts).
      const hides = HIDES[name];
      return {
        event: (id) =>
          hides.size > 0 && closedEvents ? sql`${id} NOT IN ${closedEvents}` : undefined,
        linked: (post, where) => {
          const t = TABLES[post];
          return db
            .select({ id: t.id })
            .from(t)
            .where(and(where, readable(post), hides.has(post) ? opened(t) : undefined));
        },
      };
    },
  };
}

/** The rule of a request (`filterRule`). */
export type FilterRule = ReturnType<typeof filterRule>;
