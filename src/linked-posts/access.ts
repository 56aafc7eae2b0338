/**
 * Who may see what of a venue or organizer (tec-reference §4.7; contract §4 row 18): a non-public
 * post is 403 `{kind}-not-accessible` to users who may not read it; a password never causes a 403,
 * it blanks the protected fields (names kept) unless the request's `password` matches or an editor of
 * the post asks with `context=edit`. Blanking happens to the post before anything renders it
 * (`visibleLinked`), by its contract (src/linked-posts/venue.ts, src/linked-posts/organizer.ts).
 */

import { type AuthUser, canEditPost, canReadPost } from "../access/capabilities";
import { blankedFields } from "../http/contract";
import { sha256Hex, timingSafeEqual } from "../http/crypto";
import { ApiError } from "../http/errors";
import { hider, OPEN, type Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { LINKED } from "./kinds";
import type { LinkedRow } from "./load";
import { type LinkedPost, type LinkedView, linkedView } from "./post-fields";
import type { LinkedKind } from "./record";

/**
 * Single GET rule (§4.7): published posts for everyone, others (trash included) for whoever may read
 * them (their author, editors).
 * @throws ApiError 403 `venue-not-accessible` / `organizer-not-accessible`.
 */
export function assertLinkedReadable(
  kind: LinkedKind,
  row: LinkedRow,
  user: AuthUser | null,
): void {
  if (row.status !== "publish" && !canReadPost(user, row))
    throw new ApiError(403, `${kind}-not-accessible`);
}

/** Decides, per post, whether its protected fields are shown. */
export type PasswordAccess = (row: LinkedRow) => boolean;

/**
 * The access test of §4.7 for one request, hashing the given password once (lists test it against
 * every post of the page).
 * @param password the `password` parameter as sent (anything but a non-empty string opens nothing).
 * @param context the `context` query parameter; only `edit` matters.
 */
export async function passwordAccess(
  password: unknown,
  context: unknown,
  user: AuthUser | null,
): Promise<PasswordAccess> {
  const digest = typeof password === "string" && password !== "" ? await sha256Hex(password) : "";
  return (row) =>
    row.passwordDigest === "" ||
    (digest !== "" && timingSafeEqual(digest, row.passwordDigest)) ||
    (context === "edit" && canEditPost(user, row));
}

/** How one kind's posts are blanked: which fields show their blank, and the emptied copy. */
interface Blanking {
  fields: (view: LinkedView) => ReadonlySet<string>;
  hide: (post: LinkedPost) => LinkedPost;
}

const blankings = new Map<LinkedKind, Blanking>();
function blanking(kind: LinkedKind): Blanking {
  let b = blankings.get(kind);
  if (!b) {
    const { fields } = LINKED[kind];
    b = { fields: blankedFields(fields, (r: LinkedView) => r.row), hide: hider(fields) };
    blankings.set(kind, b);
  }
  return b;
}

/**
 * A venue or organizer as the viewer may see it (§4.7, contract §4 row 18), for every renderer
 * (its JSON, an event's, JSON-LD, the iCalendar feed): whole when `open`; else blanked — a copy
 * whose protected values are emptied (name, `state`, dates, slug kept), naming the fields it had a
 * value for, which are sent as their contract's `blank`.
 * @param open whether the viewer may open it (`PasswordAccess`; posts without a password always).
 * @example visibleLinked(ctx, "venue", { row, image }, false) // { row: { …, phone: "" }, image: null, blanked: Set { "phone", … } }
 */
export function visibleLinked<Row extends LinkedRow>(
  ctx: RenderContext,
  kind: LinkedKind,
  post: LinkedPost<Row>,
  open: boolean,
): LinkedPost<Row> & Shown {
  if (open) return { ...post, blanked: OPEN };
  const b = blanking(kind);
  const blanked = b.fields(linkedView(ctx, { ...post, blanked: OPEN }));
  return { ...(b.hide(post) as LinkedPost<Row>), blanked };
}
