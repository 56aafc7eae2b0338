/**
 * Rows for the demo venues, organizers, categories and tags (ids handed in by the caller).
 */
import type { DateTime } from "luxon";
import type { Random } from "../lib/prng";
import type { SqlRow } from "../lib/sql";
import { postStamps, slugger, wp } from "./common";
import { ORGANIZERS, stateProvince, VENUES } from "./places";
import { CATEGORIES, TAGS, type TagKey } from "./terms";

/** Columns every post row gets, besides its own. */
function postRow(
  id: number,
  title: string,
  slug: string,
  content: string,
  excerpt: string,
  stamps: ReturnType<typeof postStamps>,
): SqlRow {
  return {
    id,
    author: 1,
    status: "publish",
    slug,
    title,
    content,
    excerpt,
    password_digest: "",
    ...stamps,
  };
}

/** Venue rows, ids `firstId`…, in VENUES order. */
export function venueRows(r: Random, today: DateTime, firstId: number): SqlRow[] {
  const slug = slugger();
  return VENUES.map((v, i) => ({
    ...postRow(
      firstId + i,
      v.title,
      slug(v.title),
      `<p>${v.description}</p>`,
      v.description,
      postStamps(r, today, 120, 400),
    ),
    address: v.address,
    city: v.city,
    country: v.country,
    province: v.province ?? "",
    state: v.state ?? "",
    zip: v.zip,
    phone: v.phone,
    stateprovince: stateProvince(v),
    website: v.website,
    show_map: i !== 4,
    show_map_link: i !== 4,
    geo_lat: v.geo?.[0] ?? null,
    geo_lng: v.geo?.[1] ?? null,
  }));
}

/** Organizer rows, ids `firstId`…, in ORGANIZERS order. */
export function organizerRows(r: Random, today: DateTime, firstId: number): SqlRow[] {
  const slug = slugger();
  return ORGANIZERS.map((o, i) => ({
    ...postRow(
      firstId + i,
      o.title,
      slug(o.title),
      `<p>${o.description}</p>`,
      o.description,
      postStamps(r, today, 120, 400),
    ),
    phone: o.phone,
    website: o.website,
    email: o.email,
  }));
}

/** Term ids by key: categories by category key, tags by tag key. */
export interface TermIds {
  categories: Map<string, number>;
  tags: Map<TagKey, number>;
}

/** Category rows then tag rows, ids `firstId`…, and the id of each key. */
export function termRows(today: DateTime, firstId: number): { rows: SqlRow[]; ids: TermIds } {
  const ids: TermIds = { categories: new Map(), tags: new Map() };
  const modified = wp(today.toUTC());
  let id = firstId;
  const rows: SqlRow[] = [];
  const slug = slugger();
  for (const c of CATEGORIES) {
    ids.categories.set(c.key, id);
    const parent = c.parent ? ids.categories.get(c.parent) : 0;
    if (parent === undefined)
      throw new Error(`category ${c.key}: parent ${c.parent} must come first`);
    rows.push({
      id: id++,
      taxonomy: "tribe_events_cat",
      name: c.name,
      slug: slug(c.name),
      description: c.description,
      parent,
      term_group: 0,
      count: 0,
      modified_gmt: modified,
    });
  }
  const tagSlug = slugger();
  for (const [key, name] of Object.entries(TAGS) as Array<[TagKey, string]>) {
    ids.tags.set(key, id);
    rows.push({
      id: id++,
      taxonomy: "post_tag",
      name,
      slug: tagSlug(name),
      description: "",
      parent: 0,
      term_group: 0,
      count: 0,
      modified_gmt: modified,
    });
  }
  return { rows, ids };
}
