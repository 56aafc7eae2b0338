/**
 * The two taxonomies the term routes serve (tec-reference §1.2 rows 11–14, §4.4, §9.2): one
 * implementation, parameterized by what differs between categories and tags.
 */

import { type AuthUser, type Capability, can } from "../access/capabilities";
import type { Taxonomy } from "../db/schema";
import type { MessageKey } from "../http/error-codes";

export interface TaxonomyInfo {
  taxonomy: Taxonomy;
  /** Route base here, and the list key of the archive body (§5.1). */
  base: "categories" | "tags";
  /** Categories nest (`parent`); tags do not. */
  hierarchical: boolean;
  /** WordPress `wp/v2` rest base, for `_links` (§4.4). */
  wpBase: string;
  /**
   * `wp/v2` collections filtered by the term, for `_links["wp:post_type"]`: the post types of this
   * site that use the taxonomy (the original also names WordPress's blog `posts` for tags and TEC's
   * `tec_calendar_embed`, which this calendar does not hold).
   */
  postTypes: string[];
  /** Capabilities needed to create, edit and delete terms (§9.2). */
  manageCaps: Capability[];
  /** Message of `term_exists` (§8.8): hierarchical taxonomies compare names among siblings only. */
  termExistsMessage: MessageKey;
}

/** `tribe_events_cat`: author and up may manage (`edit_tribe_events` + `publish_tribe_events`). */
export const CATEGORIES: TaxonomyInfo = {
  taxonomy: "tribe_events_cat",
  base: "categories",
  hierarchical: true,
  wpBase: "tribe_events_cat",
  postTypes: ["tribe_events"],
  manageCaps: ["edit_posts", "publish_posts"],
  termExistsMessage: "term_exists_parent",
};

/** `post_tag`: editor and up may manage (`edit_tribe_events` + `manage_categories`). */
export const TAGS: TaxonomyInfo = {
  taxonomy: "post_tag",
  base: "tags",
  hierarchical: false,
  wpBase: "tags",
  postTypes: ["tribe_events"],
  manageCaps: ["edit_posts", "manage_categories"],
  termExistsMessage: "term_exists",
};

/** Something that answers capability questions: an `AllowSubject`, or `subjectOf(user)`. */
export interface CapabilitySubject {
  can(cap: Capability): boolean;
}

export const subjectOf = (user: AuthUser | null): CapabilitySubject => ({
  can: (cap) => can(user, cap),
});

/** May the subject create, edit and delete terms of the taxonomy (§9.2)? */
export const mayManage = (info: TaxonomyInfo, subject: CapabilitySubject) =>
  info.manageCaps.every((cap) => subject.can(cap));
