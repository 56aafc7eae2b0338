/**
 * From the original's objects (tec-reference §4) to this API's create and update bodies (§2.3, §2.6,
 * §2.7, §2.8), and the comparison that makes a second import write nothing: an update names only
 * the fields that differ (contract §4 row 10).
 *
 * TEC writes titles and names with HTML entities (`&#8217;`); this API keeps plain text (contract
 * §4), so they are decoded. Descriptions and excerpts are HTML either way and are sent as they are.
 * Author ids and post dates are not carried over (the importing user becomes the author).
 */
import { decodeEntities } from "../../text/html";

/** A term of TEC's archive (§4.4 b) or embedded in an event (§4.4 a). */
export interface TecTerm {
  id: number;
  name: string;
  slug: string;
  description?: string;
  parent?: number;
  taxonomy?: string;
}

/** A venue (§4.2) or organizer (§4.3): falsy keys are missing. */
export type TecLinked = { id: number; status?: string; image?: { url?: string } | false } & Record<
  string,
  unknown
>;

/** An event (§4.1). */
export interface TecEvent {
  id: number;
  global_id: string;
  status: string;
  url: string;
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: { url?: string } | false;
  all_day: boolean | null;
  start_date: string;
  end_date: string;
  timezone: string;
  cost: string;
  cost_details?: { values?: string[] };
  website: string;
  show_map: boolean | null;
  show_map_link: boolean | null;
  hide_from_listings: boolean | null;
  sticky: boolean | null;
  featured: boolean | null;
  categories: TecTerm[];
  tags: TecTerm[];
  venue: TecLinked | TecLinked[] | [];
  organizer: TecLinked[];
}

export const plain = (text: unknown) =>
  typeof text === "string" ? decodeEntities(text).trim() : "";
const str = (x: unknown) => (typeof x === "string" ? x : "");
const imageUrl = (image: unknown) =>
  image && typeof image === "object" && typeof (image as { url?: unknown }).url === "string"
    ? (image as { url: string }).url
    : "";

/** The writable text fields of each kind, beyond the name (§2.6, §2.7). */
const LINKED_FIELDS = {
  venue: [
    "description",
    "excerpt",
    "address",
    "city",
    "country",
    "province",
    "state",
    "zip",
    "phone",
    "stateprovince",
    "website",
  ],
  organizer: ["description", "excerpt", "phone", "website", "email"],
} as const;

/**
 * The fields of a venue or organizer as this API takes them: every writable field, `""` for missing
 * ones (they were falsy), booleans as they are, the image as its URL.
 */
export function linkedFields(
  kind: "venue" | "organizer",
  o: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { [kind]: plain(o[kind]) };
  for (const k of LINKED_FIELDS[kind]) out[k] = str(o[k]);
  if (o.status) out.status = o.status;
  if (kind === "venue") {
    out.show_map = o.show_map !== false;
    out.show_map_link = o.show_map_link !== false;
    out.geo_lat = typeof o.geo_lat === "number" ? o.geo_lat : null;
    out.geo_lng = typeof o.geo_lng === "number" ? o.geo_lng : null;
  }
  out.image = imageUrl(o.image);
  return out;
}

/** The body that creates it: empty values left out. */
export function linkedCreate(
  kind: "venue" | "organizer",
  source: Record<string, unknown>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(linkedFields(kind, source)).filter(([, v]) => v !== "" && v !== null),
  );
}

/** What to send so that the stored one says what the source says (`{}`: nothing). */
export function linkedChanges(
  kind: "venue" | "organizer",
  source: Record<string, unknown>,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const want = linkedFields(kind, source);
  const have = linkedFields(kind, stored);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(want)) {
    if (k === kind || v === have[k]) continue;
    // The image can be replaced, not removed through this field.
    if (k === "image" && v === "") continue;
    out[k] = v === null ? "" : v;
  }
  return out;
}

/** Whether TEC blanked the event for this reader (password protected, §4.7): its booleans are null. */
export const isBlanked = (e: TecEvent) => e.all_day === null || e.show_map === null;

/** Target ids an event links to. */
export interface EventLinks {
  categories: number[];
  tags: number[];
  venue: number | null;
  organizers: number[];
}

/** The event fields compared and sent (API names), for a source event and its target links. */
function eventFields(e: TecEvent, _links: EventLinks) {
  return {
    title: plain(e.title),
    description: str(e.description),
    excerpt: str(e.excerpt),
    status: e.status,
    dates: {
      start_date: e.start_date,
      end_date: e.end_date,
      all_day: e.all_day === true,
      timezone: e.timezone,
    },
    cost: str(e.cost),
    website: e.website && e.website !== e.url ? e.website : "",
    show_map: e.show_map === true,
    show_map_link: e.show_map_link === true,
    hide_from_listings: e.hide_from_listings === true,
    sticky: e.sticky === true,
    featured: e.featured === true,
    image: imageUrl(e.image),
  };
}

/**
 * The body that creates the event: `uid` = the source's `global_id` (how the next run finds it),
 * the source's slug, and the links as target ids.
 */
export function eventCreate(e: TecEvent, links: EventLinks): Record<string, unknown> {
  const f = eventFields(e, links);
  const body: Record<string, unknown> = {
    uid: e.global_id,
    title: f.title,
    slug: e.slug,
    status: f.status,
    ...f.dates,
  };
  if (!f.dates.timezone) delete body.timezone;
  for (const k of ["description", "excerpt", "cost", "website", "image"] as const)
    if (f[k] !== "") body[k] = f[k];
  for (const k of [
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
  ] as const)
    body[k] = f[k];
  if (links.categories.length) body.categories = links.categories;
  if (links.tags.length) body.tags = links.tags;
  if (links.venue !== null) body.venue = links.venue;
  if (links.organizers.length) body.organizer = links.organizers;
  return body;
}

/** A stored event of this API (§4.1), as far as the comparison reads it. */
export type StoredEvent = TecEvent & { id: number };

const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
const venueIdOf = (v: StoredEvent["venue"]) => (Array.isArray(v) ? (v[0]?.id ?? null) : v.id);

/**
 * The update that makes the stored event say what the source event says; `{}` when nothing differs.
 * Descriptions and excerpts are never cleared (the API refuses empty ones); cost compares by its
 * parsed values, so a currency symbol the source site adds does not count as a change.
 */
export function eventChanges(
  e: TecEvent,
  links: EventLinks,
  stored: StoredEvent,
): Record<string, unknown> {
  const want = eventFields(e, links);
  const out: Record<string, unknown> = {};
  if (want.title !== stored.title) out.title = want.title;
  if (want.description !== "" && want.description !== stored.description)
    out.description = want.description;
  if (want.excerpt !== "" && want.excerpt !== stored.excerpt) out.excerpt = want.excerpt;
  if (want.status !== stored.status) out.status = want.status;
  const d = want.dates;
  if (
    d.start_date !== stored.start_date ||
    d.end_date !== stored.end_date ||
    d.all_day !== stored.all_day ||
    (d.timezone !== "" && d.timezone !== stored.timezone)
  ) {
    Object.assign(out, d);
    if (!d.timezone) delete out.timezone;
  }
  const values = (x: { cost_details?: { values?: string[] } }) =>
    JSON.stringify(x.cost_details?.values ?? []);
  if (values(e) !== values(stored)) out.cost = want.cost;
  const storedWebsite = stored.website && stored.website !== stored.url ? stored.website : "";
  if (want.website !== storedWebsite) out.website = want.website;
  for (const k of [
    "show_map",
    "show_map_link",
    "hide_from_listings",
    "sticky",
    "featured",
  ] as const)
    if (want[k] !== stored[k]) out[k] = want[k];
  if (want.image !== "" && want.image !== imageUrl(stored.image)) out.image = want.image;
  if (
    !sameSet(
      links.categories,
      stored.categories.map((t) => t.id),
    )
  )
    out.categories = links.categories;
  if (
    !sameSet(
      links.tags,
      stored.tags.map((t) => t.id),
    )
  )
    out.tags = links.tags;
  if (links.venue !== venueIdOf(stored.venue)) out.venue = links.venue ?? "";
  const organizers = stored.organizer.map((o) => o.id);
  if (
    organizers.length !== links.organizers.length ||
    organizers.some((id, i) => id !== links.organizers[i])
  )
    out.organizer = links.organizers;
  return out;
}
