/**
 * From the original's objects (tec-reference §4) to this API's create and update bodies (§2.3, §2.6,
 * §2.7, §2.8), and the comparison that makes a second import write nothing: an update names only
 * the fields that differ (contract §4 row 10).
 *
 * TEC writes titles and names with HTML entities (`&#8217;`); this API keeps plain text (contract
 * §4), so they are decoded. Descriptions and excerpts are HTML either way and are sent as they are.
 * Author ids are not carried over (the importing user becomes the author).
 *
 * What the source says is kept as the source stored it: the post date (`date_utc`), the
 * cost as its values (§4.8: `cost_details.values`, never the formatted `cost`, whose `Free` would
 * come back as a word) with the currency's symbol, position and code, and the source's global ids
 * in `global_id_lineage` (§4.1), which is how the next run finds the post again.
 */
import { EVENT_FIELDS } from "../../../src/events/contract";
import { costValues } from "../../../src/events/cost";
import {
  datesBody,
  datesOf,
  type EventDatesObject,
  type SentDates,
} from "../../../src/events/date-fields";
import type { ArgSpecs, WpType } from "../../../src/http/args";
import { blankedNames, type WireFields } from "../../../src/http/contract";
import { ORGANIZER_ARGS, ORGANIZER_FIELDS } from "../../../src/linked-posts/organizer";
import { VENUE_ARGS, VENUE_FIELDS } from "../../../src/linked-posts/venue";
import { decodeEntities } from "../../../src/text/html";

/** A term of TEC's archive (§4.4 b) or embedded in an event (§4.4 a). */
export interface TecTerm {
  id: number;
  name: string;
  slug: string;
  description?: string;
  parent?: number;
  taxonomy?: string;
}

/** The post fields every TEC object has (§4.1–§4.3); venues and organizers drop falsy ones. */
export interface TecPost {
  global_id?: string;
  global_id_lineage?: string[];
  date?: string;
  date_utc?: string;
}

/** A venue (§4.2) or organizer (§4.3): falsy keys are missing. */
export type TecLinked = {
  id: number;
  status?: string;
  image?: { url?: string } | false;
} & TecPost &
  Record<string, unknown>;

/** `cost_details` (§4.1, §4.8). */
export interface TecCostDetails {
  currency_symbol?: string;
  currency_code?: string;
  currency_position?: string;
  values?: string[];
}

/** An event (§4.1). */
export interface TecEvent extends TecPost, EventDatesObject {
  id: number;
  global_id: string;
  status: string;
  url: string;
  title: string;
  description: string;
  excerpt: string;
  slug: string;
  image: { url?: string } | false;
  cost: string;
  cost_details?: TecCostDetails;
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

type LinkedKind = "venue" | "organizer";

/** The contracts of the linked posts (src/linked-posts/venue.ts, organizer.ts). */
const LINKED_CONTRACTS: Record<LinkedKind, { args: ArgSpecs; fields: WireFields }> = {
  venue: { args: VENUE_ARGS, fields: VENUE_FIELDS },
  organizer: { args: ORGANIZER_ARGS, fields: ORGANIZER_FIELDS },
};

export const plain = (text: unknown) =>
  typeof text === "string" ? decodeEntities(text).trim() : "";
const str = (x: unknown) => (typeof x === "string" ? x : "");
const imageUrl = (image: unknown) =>
  image && typeof image === "object" && typeof (image as { url?: unknown }).url === "string"
    ? (image as { url: string }).url
    : "";

/**
 * The writable fields of each kind the import copies, by the type of their argument, in TEC's
 * argument order (§2.6, §2.7: `VENUE_ARGS`, `ORGANIZER_ARGS`): the texts stored as they are beyond
 * the name (address, contact, description, …), the flags (a venue's map), the numbers (its
 * coordinates).
 */
function copied(kind: LinkedKind) {
  const { args, fields } = LINKED_CONTRACTS[kind];
  const of = (type: WpType) =>
    Object.keys(args).filter(
      (name) => name !== kind && args[name].type === type && fields[name].column !== undefined,
    );
  return { texts: of("string"), flags: of("boolean"), numbers: of("number") };
}

const COPIED = { venue: copied("venue"), organizer: copied("organizer") };

/**
 * The fields of a venue or organizer as this API takes them: every copied field, `""` for missing
 * texts (they were falsy), flags true unless false, numbers or null, the image as its URL.
 */
export function linkedFields(
  kind: LinkedKind,
  o: Record<string, unknown>,
): Record<string, unknown> {
  const { texts, flags, numbers } = COPIED[kind];
  const out: Record<string, unknown> = { [kind]: plain(o[kind]) };
  for (const k of texts) out[k] = str(o[k]);
  if (o.status) out.status = o.status;
  for (const k of flags) out[k] = o[k] !== false;
  for (const k of numbers) out[k] = typeof o[k] === "number" ? o[k] : null;
  out.image = imageUrl(o.image);
  return out;
}

/** The form of a global id this API accepts in `global_id_lineage` (no whitespace, no commas). */
const GLOBAL_ID = /^[^\s,]{1,255}$/;

/** A post's lineage as sent (§4.1: its own global id first), `[]` when it has none. */
export const lineageOf = (o: TecPost): string[] => o.global_id_lineage ?? [];

/** The source's global ids of a post, its own first (§4.1 `global_id_lineage` starts with it). */
export function sourceLineage(o: TecPost): string[] {
  const ids = [o.global_id, ...lineageOf(o)].filter(
    (id): id is string => typeof id === "string" && GLOBAL_ID.test(id),
  );
  return [...new Set(ids)].slice(0, 50);
}

/**
 * A source global id as this service wrote it before global ids were the same in every language
 * (contract §1): with the language prefix of the namespace root it was read from
 * (`example.org/en?id=7` for `https://example.org/en/wp-json/tribe/events/v1`). Copies an earlier
 * import made from such a root carry that form; matching by it too finds them again, and their
 * lineage then gains the current form. Undefined when the root has no such prefix, or the id is
 * not of the root's host (another site's id, kept in the source's lineage).
 * @example legacyGlobalId("example.org?id=7", "https://example.org/en/wp-json/tribe/events/v1") // "example.org/en?id=7"
 */
export function legacyGlobalId(globalId: string, sourceBase: string): string | undefined {
  const root = new URL(sourceBase);
  // `{site path}/{REST prefix}/{vendor}/events/v1`: the site path is what precedes the last four.
  const segments = root.pathname.replace(/\/+$/, "").split("/");
  const sitePath = segments.slice(0, -4).join("/");
  const m = /^([^?]*)\?id=(\d+)$/.exec(globalId);
  if (!m || !sitePath || m[1] !== root.hostname) return undefined;
  return `${m[1]}${sitePath}?id=${m[2]}`;
}

/**
 * The ids a stored copy of a source post may carry: its source lineage, and the legacy form of its
 * own global id (`legacyGlobalId`).
 */
export function matchIds(o: TecPost, sourceBase: string): string[] {
  const legacy =
    typeof o.global_id === "string" ? legacyGlobalId(o.global_id, sourceBase) : undefined;
  return legacy ? [...sourceLineage(o), legacy] : sourceLineage(o);
}

/**
 * The `global_id_lineage` to send so that the stored post carries every source id (its own global
 * id, the first entry of what it shows, is never stored), or undefined when it already does.
 */
export function lineageChange(source: TecPost, stored: TecPost): string[] | undefined {
  const [own, ...kept] = lineageOf(stored);
  const missing = sourceLineage(source).filter((id) => id !== own && !kept.includes(id));
  return missing.length ? [...kept, ...missing].slice(0, 50) : undefined;
}

/** WordPress writes `0000-00-00 00:00:00` for a post date that was never set (drafts, §4.1). */
const isSetDate = (d: unknown): d is string =>
  typeof d === "string" && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(d) && !d.startsWith("0000");

/** `{ date_utc }` when the source's post date is set and the stored one differs (or on create). */
function postDate(source: TecPost, stored?: TecPost): { date_utc?: string } {
  return isSetDate(source.date_utc) && source.date_utc !== stored?.date_utc
    ? { date_utc: source.date_utc }
    : {};
}

/** The body that creates it: empty values left out, with the source's lineage and post date. */
export function linkedCreate(kind: LinkedKind, source: TecLinked): Record<string, unknown> {
  const lineage = sourceLineage(source);
  return {
    ...Object.fromEntries(
      Object.entries(linkedFields(kind, source)).filter(([, v]) => v !== "" && v !== null),
    ),
    ...postDate(source),
    ...(lineage.length ? { global_id_lineage: lineage } : {}),
  };
}

/** What to send so that the stored one says what the source says (`{}`: nothing). */
export function linkedChanges(
  kind: LinkedKind,
  source: TecLinked,
  stored: TecLinked,
): Record<string, unknown> {
  const want = linkedFields(kind, source);
  const have = linkedFields(kind, stored);
  const lineage = lineageChange(source, stored);
  const out: Record<string, unknown> = {
    ...postDate(source, stored),
    ...(lineage ? { global_id_lineage: lineage } : {}),
  };
  for (const [k, v] of Object.entries(want)) {
    if (k === kind || v === have[k]) continue;
    // The image can be replaced, not removed through this field.
    if (k === "image" && v === "") continue;
    out[k] = v === null ? "" : v;
  }
  return out;
}

/** Whether TEC blanked the event for this reader (password protected, §4.7): its booleans are null. */
export const isBlanked = (e: TecEvent) => datesOf(e).allDay === null || e.show_map === null;

/** The event fields the import writes (§2.3 names), beyond the title, dates, status and ids. */
const WRITTEN = new Set([
  "description",
  "excerpt",
  "image",
  "all_day",
  "cost",
  "website",
  "show_map",
  "show_map_link",
  "hide_from_listings",
  "sticky",
  "featured",
  "categories",
  "tags",
]);

/**
 * What an event blanked by password protection (§4.7) is missing of what the import copies, in the
 * order TEC sends the fields (the blanked ones of the event contract, src/events/contract.ts), then
 * its venue and organizers, which TEC empties (`[]`) and this service blanks.
 */
export const PROTECTED_FIELDS: readonly string[] = [
  ...[...blankedNames(EVENT_FIELDS)].filter((name) => WRITTEN.has(name)),
  "venue",
  "organizer",
];

/** Target ids an event links to. */
export interface EventLinks {
  categories: number[];
  tags: number[];
  venue: number | null;
  organizers: number[];
}

const sameList = (a: string[], b: string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The cost to send so that this API shows the source's `cost_details.values` (§4.8): the formatted
 * `cost` when it gives them back (a cost without numbers is shown as stored, `Donation`), else the
 * values themselves (`["0", "20"]` for `Free – 20€`, whose words and symbols the values do not need).
 */
export function rawCost(e: Pick<TecEvent, "cost" | "cost_details">): string[] {
  const values = e.cost_details?.values ?? [];
  const shown = str(e.cost).trim();
  if (values.length === 0) return shown === "" || e.cost_details ? [] : [shown];
  for (const candidate of [[shown], shown.split(", ")])
    if (candidate.every((c) => c !== "") && sameList(costValues(candidate), values))
      return candidate;
  return [...values];
}

/** The currency fields of `cost_details` as this API takes them (all three, `""` when missing). */
export function currencyOf(e: Pick<TecEvent, "cost_details">) {
  const d = e.cost_details ?? {};
  return {
    currency_symbol: str(d.currency_symbol),
    currency_position:
      d.currency_position === "prefix" || d.currency_position === "postfix"
        ? d.currency_position
        : "",
    currency_code: str(d.currency_code),
  };
}

/** The event fields compared and sent (API names), for a source event and its target links. */
function eventFields(e: TecEvent) {
  const dates = datesOf(e);
  return {
    title: plain(e.title),
    description: str(e.description),
    excerpt: str(e.excerpt),
    status: e.status,
    dates: {
      start: dates.start,
      end: dates.end,
      allDay: dates.allDay === true,
      timezone: dates.timezone,
    } satisfies SentDates,
    cost: rawCost(e),
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
  const f = eventFields(e);
  const body: Record<string, unknown> = {
    uid: e.global_id,
    title: f.title,
    slug: e.slug,
    status: f.status,
    ...datesBody(f.dates),
  };
  if (!f.dates.timezone) delete body.timezone;
  for (const k of ["description", "excerpt", "website", "image"] as const)
    if (f[k] !== "") body[k] = f[k];
  if (f.cost.length) body.cost = f.cost;
  // After `cost`, whose text would otherwise decide symbol and position (§8.2).
  for (const [k, v] of Object.entries(currencyOf(e))) if (v !== "" || f.cost.length) body[k] = v;
  Object.assign(body, postDate(e));
  const lineage = sourceLineage(e);
  if (lineage.length) body.global_id_lineage = lineage;
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

/**
 * The body that creates the copy of an event the source blanked and would not open (§4.7): what it
 * shows — title, slug, dates (without `all_day`, which it blanks), post date, global ids — as a
 * draft, every protected field left out rather than sent as the blank it reads.
 */
export function heldCreate(e: TecEvent): Record<string, unknown> {
  const body = eventCreate(e, { categories: [], tags: [], venue: null, organizers: [] });
  for (const name of PROTECTED_FIELDS) delete body[name];
  return { ...body, status: "draft" };
}

/** A stored event of this API (§4.1), as far as the comparison reads it. */
export type StoredEvent = TecEvent & { id: number };

const sameSet = (a: number[], b: number[]) =>
  a.length === b.length && a.every((x) => b.includes(x));
const venueIdOf = (v: StoredEvent["venue"]) => (Array.isArray(v) ? (v[0]?.id ?? null) : v.id);

/** The links a stored event has, as target ids. */
export const storedLinks = (stored: StoredEvent): EventLinks => ({
  categories: stored.categories.map((t) => t.id),
  tags: stored.tags.map((t) => t.id),
  venue: venueIdOf(stored.venue),
  organizers: stored.organizer.map((o) => o.id),
});

/**
 * A source event whose protected fields (`PROTECTED_FIELDS`, and the status, when `status` is
 * true) say what the stored copy says: compared with `eventChanges`, only what the source showed
 * can differ. The website is the stored one as the comparison reads it (none when it is the page).
 */
export function keepingStored(
  e: TecEvent,
  stored: StoredEvent,
  what: { fields: boolean; status: boolean },
): TecEvent {
  const out: TecEvent = { ...e };
  if (what.status) out.status = stored.status;
  if (!what.fields) return out;
  const kept = out as unknown as Record<string, unknown>;
  for (const name of [...PROTECTED_FIELDS, "cost_details"])
    kept[name] = (stored as unknown as Record<string, unknown>)[name];
  out.website = stored.website && stored.website !== stored.url ? stored.website : "";
  return out;
}

/**
 * The update that makes the stored event say what the source event says; `{}` when nothing differs.
 * Descriptions and excerpts are never cleared (the API refuses empty ones); the cost compares by its
 * values and currency (§4.1 `cost_details`), never by the formatted text.
 */
export function eventChanges(
  e: TecEvent,
  links: EventLinks,
  stored: StoredEvent,
): Record<string, unknown> {
  const want = eventFields(e);
  const out: Record<string, unknown> = {};
  if (want.title !== stored.title) out.title = want.title;
  if (want.description !== "" && want.description !== stored.description)
    out.description = want.description;
  if (want.excerpt !== "" && want.excerpt !== stored.excerpt) out.excerpt = want.excerpt;
  if (want.status !== stored.status) out.status = want.status;
  const d = want.dates;
  const have = datesOf(stored);
  if (
    d.start !== have.start ||
    d.end !== have.end ||
    d.allDay !== have.allDay ||
    (d.timezone !== "" && d.timezone !== have.timezone)
  ) {
    Object.assign(out, datesBody(d));
    if (!d.timezone) delete out.timezone;
  }
  const values = (x: Pick<TecEvent, "cost_details">) => x.cost_details?.values ?? [];
  const currency = currencyOf(e);
  const storedCurrency = currencyOf(stored);
  if (!sameList(values(e), values(stored))) {
    // A new cost re-reads symbol and position from its text: send the currency with it.
    out.cost = want.cost;
    Object.assign(out, currency);
  } else {
    for (const [k, v] of Object.entries(currency))
      if (v !== storedCurrency[k as keyof typeof currency]) out[k] = v;
  }
  Object.assign(out, postDate(e, stored));
  const lineage = lineageChange(e, stored);
  if (lineage) out.global_id_lineage = lineage;
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
