/**
 * Roles and capabilities (tec-reference §9.2), with WordPress's `map_meta_cap` rules for the per-post
 * capabilities `read_post`, `edit_post` and `delete_post`. Events, venues and organizers grant the same
 * capabilities to the same roles, so one table serves all three post types.
 */
import type { Role } from "./roles";

/** The authenticated user of a request. */
export interface AuthUser {
  id: number;
  username: string;
  role: Role;
}

/** Primitive capabilities. `*_posts` stand for `*_tribe_events`, `*_tribe_venues`, `*_tribe_organizers`. */
export type Capability =
  | "read"
  | "edit_posts"
  | "edit_others_posts"
  | "edit_published_posts"
  | "edit_private_posts"
  | "publish_posts"
  | "delete_posts"
  | "delete_others_posts"
  | "delete_published_posts"
  | "delete_private_posts"
  | "read_private_posts"
  | "upload_files"
  | "unfiltered_html"
  | "manage_categories"
  | "list_users"
  | "create_users"
  | "edit_users"
  | "delete_users"
  | "promote_users"
  /** Site settings; here: webhooks. Administrators only, as in WordPress. */
  | "manage_options";

const EDITOR: Capability[] = [
  "read",
  "edit_posts",
  "edit_others_posts",
  "edit_published_posts",
  "edit_private_posts",
  "publish_posts",
  "delete_posts",
  "delete_others_posts",
  "delete_published_posts",
  "delete_private_posts",
  "read_private_posts",
  "upload_files",
  // Single-site WordPress grants it to editors and administrators: their HTML is stored as sent.
  "unfiltered_html",
  "manage_categories",
];

const GRANTS: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set<Capability>([
    ...EDITOR,
    "list_users",
    "create_users",
    "edit_users",
    "delete_users",
    "promote_users",
    "manage_options",
  ]),
  editor: new Set(EDITOR),
  author: new Set<Capability>([
    "read",
    "edit_posts",
    "edit_published_posts",
    "publish_posts",
    "delete_posts",
    "delete_published_posts",
    "upload_files",
  ]),
  contributor: new Set<Capability>(["read", "edit_posts", "delete_posts"]),
  subscriber: new Set<Capability>(["read"]),
};

/** Whether the user (null = anonymous) has a primitive capability. */
export function can(user: AuthUser | null, cap: Capability): boolean {
  return user !== null && GRANTS[user.role].has(cap);
}

/** The parts of a post that per-post capability checks look at. */
export interface PostAccess {
  author: number | null;
  status: string;
  /** Status before trashing, for trashed posts. */
  trashMetaStatus?: string;
}

const PUBLISHED = new Set(["publish", "future"]);

function effectiveStatus(post: PostAccess): string {
  return post.status === "trash" ? post.trashMetaStatus || "draft" : post.status;
}

/** `edit_post` or `delete_post` (WordPress `map_meta_cap`). */
function postCap(user: AuthUser | null, post: PostAccess, verb: "edit" | "delete"): boolean {
  if (!user) return false;
  const status = effectiveStatus(post);
  const own = post.author !== null && post.author === user.id;
  if (own) {
    return can(user, PUBLISHED.has(status) ? `${verb}_published_posts` : `${verb}_posts`);
  }
  if (!can(user, `${verb}_others_posts`)) return false;
  if (PUBLISHED.has(status)) return can(user, `${verb}_published_posts`);
  if (status === "private") return can(user, `${verb}_private_posts`);
  return true;
}

/** May the user edit this post (`edit_post`)? */
export const canEditPost = (user: AuthUser | null, post: PostAccess) => postCap(user, post, "edit");

/** May the user delete (trash) this post (`delete_post`)? */
export const canDeletePost = (user: AuthUser | null, post: PostAccess) =>
  postCap(user, post, "delete");

/**
 * May the user read this post (`read_post`)? Published posts: everyone. Private: the author or
 * `read_private_posts`. Drafts, pending, future, trash: the author or whoever may edit others' posts.
 */
export function canReadPost(user: AuthUser | null, post: PostAccess): boolean {
  if (post.status === "publish") return true;
  if (!user) return false;
  if (post.author !== null && post.author === user.id) return true;
  if (post.status === "private") return can(user, "read_private_posts");
  return can(user, "edit_others_posts");
}

/**
 * WordPress `scale_back_post_status` (§8.2): users who cannot publish get `pending` instead of
 * `publish`/`future`, and — as WordPress requires `publish_posts` for private posts too — instead
 * of `private`; their default is `draft`.
 */
export function scaleBackStatus(user: AuthUser | null, requested: string | undefined): string {
  if (can(user, "publish_posts")) return requested ?? "publish";
  if (requested === undefined) return "draft";
  return PUBLISHED.has(requested) || requested === "private" ? "pending" : requested;
}
