/**
 * The event form's state and its translation to and from the API's event (§4.1 answers, §2.3
 * arguments): dates as the event's wall clock (`Y-m-d H:i:s` in its `timezone`), terms, venue and
 * organizers by id. An update sends only what changed (contract §4 row 10: the API changes exactly
 * the fields named). A series' `recurrence` is the rule builder's (src/editor/browser/series-rule.ts),
 * sent only when the builder changed it: lines not sent move with the series' dates (contract §7.8).
 */
import { linesOf, noRule, type RuleState, ruleOf } from "./series-rule";

/** What an event of a recurring series says of it (contract §7.8). */
export interface SeriesInfo {
  id: number;
  recurrence: string[];
  occurrence_start: string;
  original_start: string;
  timezone: string;
  split_from: number | null;
}

/** The parts of an event answer the form edits. */
export interface EventRecord {
  id: number;
  title: string;
  description?: string;
  status: string;
  start_date: string;
  end_date: string;
  all_day?: boolean | null;
  timezone?: string;
  cost?: string;
  website?: string;
  image?: false | { url?: string };
  categories?: Array<{ id: number; name: string }>;
  tags?: Array<{ id: number; name: string }>;
  venue?: { id?: number; venue?: string } | [];
  organizer?: Array<{ id: number; organizer?: string }>;
  hide_from_listings?: boolean | null;
  featured?: boolean | null;
  series?: SeriesInfo;
}

/** What the form holds. Dates `YYYY-MM-DD`, times `HH:MM`; ids as numbers, the venue as a string. */
export interface EventState {
  title: string;
  description: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  allDay: boolean;
  timezone: string;
  cost: string;
  website: string;
  image: string;
  categories: number[];
  tags: number[];
  venue: string;
  organizers: number[];
  status: string;
  password: string;
  /** Remove the event's password (an update sends `password: ""`, §8.3). */
  removePassword: boolean;
  hideFromListings: boolean;
  featured: boolean;
  /** The rule builder (a series' first event and single events only). */
  rule: RuleState;
  /** The lines as read (`series.recurrence`; `[]` for a single event). */
  storedLines: string[];
  /** Whether the builder changed the rule: only then are lines sent. */
  ruleTouched: boolean;
}

const pad = (n: number) => String(n).padStart(2, "0");
const day = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A new event: tomorrow 10:00 to 11:00 in the site's zone, published (the API's default). */
export function newEvent(): EventState {
  const tomorrow = day(new Date(Date.now() + 86_400_000));
  return {
    title: "",
    description: "",
    startDate: tomorrow,
    startTime: "10:00",
    endDate: tomorrow,
    endTime: "11:00",
    allDay: false,
    timezone: "",
    cost: "",
    website: "",
    image: "",
    categories: [],
    tags: [],
    venue: "",
    organizers: [],
    status: "publish",
    password: "",
    removePassword: false,
    hideFromListings: false,
    featured: false,
    rule: noRule(),
    storedLines: [],
    ruleTouched: false,
  };
}

/** The form's state for a loaded event (the password is never sent by the API: empty). */
export function stateOf(e: EventRecord): EventState {
  const venue = Array.isArray(e.venue) ? undefined : e.venue?.id;
  const storedLines = e.series?.recurrence ?? [];
  const dates = {
    startDate: e.start_date.slice(0, 10),
    startTime: e.start_date.slice(11, 16),
    allDay: e.all_day === true,
    timezone: e.timezone ?? "",
  };
  return {
    title: e.title ?? "",
    description: e.description ?? "",
    startDate: e.start_date.slice(0, 10),
    startTime: e.start_date.slice(11, 16),
    endDate: e.end_date.slice(0, 10),
    endTime: e.end_date.slice(11, 16),
    allDay: e.all_day === true,
    timezone: e.timezone ?? "",
    cost: e.cost ?? "",
    website: e.website ?? "",
    image: e.image ? (e.image.url ?? "") : "",
    categories: (e.categories ?? []).map((c) => c.id),
    tags: (e.tags ?? []).map((c) => c.id),
    venue: venue ? String(venue) : "",
    organizers: (e.organizer ?? []).map((o) => o.id),
    status: e.status,
    password: "",
    removePassword: false,
    hideFromListings: e.hide_from_listings === true,
    featured: e.featured === true,
    rule: ruleOf(storedLines, dates),
    storedLines,
    ruleTouched: false,
  };
}

/** The `recurrence` lines of the state: the builder's when it changed them, else those read. */
export const recurrenceOf = (s: EventState): string[] =>
  s.ruleTouched
    ? linesOf(s.rule, { ...s, startTime: s.allDay ? "00:00" : s.startTime })
    : s.storedLines;

/**
 * The state as the API's arguments (§2.3). An empty description, image or password is left out:
 * the API refuses `""` for the first two on a create, and the password is never shown.
 */
export function argumentsOf(s: EventState): Record<string, unknown> {
  const args: Record<string, unknown> = {
    title: s.title,
    start_date: `${s.startDate} ${s.allDay ? "00:00" : s.startTime}:00`,
    end_date: `${s.endDate} ${s.allDay ? "23:59" : s.endTime}:${s.allDay ? "59" : "00"}`,
    all_day: s.allDay,
    timezone: s.timezone,
    cost: s.cost,
    website: s.website,
    categories: s.categories,
    tags: s.tags,
    venue: s.venue ? Number(s.venue) : "",
    organizer: s.organizers,
    status: s.status,
    hide_from_listings: s.hideFromListings,
    featured: s.featured,
  };
  if (s.image) args.image = s.image;
  if (s.description) args.description = s.description;
  if (s.password) args.password = s.password;
  // A new event repeats only with lines; an update sends them when they changed (`[]` ends it).
  const recurrence = recurrenceOf(s);
  if (recurrence.length || s.storedLines.length) args.recurrence = recurrence;
  return args;
}

/** The arguments of `now` that differ from those of `before` (an update names only them). */
export function changedArguments(before: EventState, now: EventState): Record<string, unknown> {
  const a = argumentsOf(before);
  const b = argumentsOf(now);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(b))
    if (JSON.stringify(value) !== JSON.stringify(a[key])) out[key] = value;
  // An image emptied in the form is removed (`""`, §8.3); an emptied description is sent too: the
  // API refuses "" (as TEC) and says so next to the field.
  if (before.image && !now.image) out.image = "";
  if (before.description && !now.description) out.description = "";
  if (now.removePassword && !now.password) out.password = "";
  return out;
}
