/**
 * The per-post rights of src/access/capabilities.ts (`canReadPost`, `canEditPost`; tec-reference
 * §9.2, WordPress's `map_meta_cap`) as SQL conditions on a post table, for queries that must keep
 * exactly the rows the viewer may read or edit — filters that read linked posts
 * (src/events/filter-visibility.ts). Built from the same capability table, so that a role's rights
 * change in one place; test/hardening/post-access-sql.test.ts holds the two to the same answers.
 */
import { and, eq, inArray, ne, notInArray, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { type AuthUser, type Capability, can } from "../access/capabilities";
import { events } from "./schema";

/** The columns of a post table the rights look at. */
export interface PostAccessColumns {
  status: SQLWrapper;
  author: SQLWrapper;
  /** WordPress `_wp_trash_meta_status` (`""` when not trashed): who may edit a trashed post. */
  trashMetaStatus: SQLWrapper;
}

const FALSE = sql`0`;
const PUBLISHED = ["publish", "future"];

/**
 * Rows the viewer may read (`canReadPost`): published posts, everyone; private ones, their author
 * and `read_private_posts`; drafts, pending, scheduled and trashed ones, their author and
 * `edit_others_posts`.
 * @returns undefined when every row is readable (editors, administrators).
 * @example db.select().from(venues).where(readablePosts(venues, null)) // published venues only
 */
export function readablePosts(t: PostAccessColumns, user: AuthUser | null): SQL | undefined {
  const privateToo = can(user, "read_private_posts");
  const othersToo = can(user, "edit_others_posts");
  if (privateToo && othersToo) return undefined;
  const others = [eq(t.status, "publish")];
  if (privateToo) others.push(eq(t.status, "private"));
  if (othersToo) others.push(sql`${t.status} <> 'private'`);
  return user ? or(...others, eq(t.author, user.id)) : others[0];
}

/**
 * Rows the viewer may edit (`canEditPost`): their own with `edit_posts` (published or scheduled
 * ones with `edit_published_posts`), others' with `edit_others_posts` (and the published or
 * private variant); a trashed post by the status it had before (`draft` when unknown).
 * @returns undefined when every row is editable (editors, administrators); `0` for viewers who
 *   may edit nothing (anonymous, subscribers).
 */
export function editablePosts(t: PostAccessColumns, user: AuthUser | null): SQL | undefined {
  if (!user) return FALSE;
  const all: Capability[] = [
    "edit_posts",
    "edit_published_posts",
    "edit_others_posts",
    "edit_private_posts",
  ];
  if (all.every((cap) => can(user, cap))) return undefined;
  const status = sql`(CASE WHEN ${t.status} = 'trash' THEN coalesce(nullif(${t.trashMetaStatus}, ''), 'draft') ELSE ${t.status} END)`;
  const published = inArray(status, PUBLISHED);
  const unpublished = notInArray(status, PUBLISHED);
  const onPublished = can(user, "edit_published_posts");
  const onUnpublished = can(user, "edit_posts");
  const mine = eq(t.author, user.id);
  const own =
    onPublished && onUnpublished
      ? mine
      : onPublished
        ? and(mine, published)
        : onUnpublished
          ? and(mine, unpublished)
          : undefined;
  if (!can(user, "edit_others_posts")) return own ?? FALSE;
  const others = [and(unpublished, ne(status, "private"))];
  if (onPublished) others.push(published);
  if (can(user, "edit_private_posts")) others.push(eq(status, "private"));
  return or(own, and(sql`${t.author} IS NOT ${user.id}`, or(...others))) ?? FALSE;
}

/**
 * Visibility by role (§6.1, §9.2): editors and administrators see every listed status; authors and
 * contributors see published events and their own; everybody else only published ones.
 * @param mine for the occurrences of series: the condition "the series is the user's" (their
 *   author is the series').
 */
export function eventVisibility(
  user: AuthUser | null,
  status: SQLWrapper = events.status,
  mine?: (author: number) => SQL,
): SQL | undefined {
  if (can(user, "edit_others_posts")) return undefined;
  if (user && can(user, "edit_posts"))
    return or(eq(status, "publish"), mine ? mine(user.id) : eq(events.author, user.id));
  // Everybody else may only ask for `publish` (validated before), so the status filter suffices.
  return undefined;
}

/**
 * `readablePosts` checked on the rows a filter's own condition finds (ids, the coordinates' box,
 * …), by their own index: `+` keeps SQLite from looking rows up by status instead (it has no
 * statistics to know that the box is the narrower).
 */
export function readableByIndex(t: PostAccessColumns, user: AuthUser | null): SQL | undefined {
  const checked = { status: sql`+${t.status}`, author: sql`+${t.author}` };
  return readablePosts({ ...checked, trashMetaStatus: t.trashMetaStatus }, user);
}
