/**
 * The differential test of the read cache (docs: caching): generated sequences of writes, each
 * followed by anonymous reads of many URLs, every read made against the service as it runs (caches,
 * stored renderings, the isolate's memory) and against the same service with every cache switched
 * off (`READ_CACHE=off`: the full path), for the same state. Status, body, ETag, the paging
 * headers and the sync cursor must be equal.
 *
 * - Writes go through the worker as an administrator, with their after-answer work (renderings,
 *   webhooks) run to the end, as `npm start` runs it: creates, updates, status changes publish ↔
 *   draft ↔ private ↔ pending ↔ trash, passwords set and cleared, venue, organizer and term changes,
 *   trashing and permanent deletes.
 * - "Elsewhere" writes go straight into D1, as another isolate's would, without telling this one;
 *   the read cache may then answer from the version it remembers for `CONTENT_VERSION_TTL_MS`, so
 *   the reads that follow come after the TTL (the cache's clock is driven, not waited for).
 * - "Recycles" drop the isolate's memory of answers and version, as a new isolate of the same
 *   location would start: its answers then come from the Cache API or the full path.
 * - Each URL is read twice with caches on (a miss, then typically a hit), then once with them off;
 *   most reads are of URLs read before, whose kept answers a missed change would leave stale.
 *
 * Seeded and replayable: a failure names the seed, the step and the operations that led to it.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/index";
import { clearMemory } from "../../../src/read-cache/store";
import { forgetVersion } from "../../../src/read-cache/version";
import { ADMIN, NS, ORIGIN } from "../../support/api";
import { stopClock } from "../../support/clock";
import { day } from "../../support/dates";

/** `CONTENT_VERSION_TTL_MS` as wrangler.toml sets it (and `npm start` runs it). */
const TTL = 1000;
/** The same service with every cache, memo and stored rendering off. */
const OFF = { ...env, READ_CACHE: "off" };

/** A small seeded generator (mulberry32). */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[int(0, items.length - 1)];
  const chance = (p: number) => next() < p;
  const some = <T>(items: readonly T[], most = 3): T[] =>
    items.filter(() => chance(0.5)).slice(0, int(0, most));
  return { next, int, pick, chance, some };
}
type Random = ReturnType<typeof prng>;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One request through the worker with `bindings`, its after-answer work run to the end. */
async function send(request: Request, bindings: object): Promise<Answer> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, bindings as never, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, text };
}

/** A write as the administrator. */
async function write(method: string, path: string, json?: unknown): Promise<Answer> {
  const headers: Record<string, string> = { ...ADMIN };
  if (json !== undefined) headers["content-type"] = "application/json";
  const res = await send(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: json === undefined ? undefined : JSON.stringify(json),
    }),
    env,
  );
  if (res.status >= 500) throw new Error(`${method} ${path} answered ${res.status}: ${res.text}`);
  return res;
}

/** What exists now, read straight from D1 in one round trip (ids, slugs, statuses). */
async function world() {
  type Post = { id: number; slug: string; status: string };
  type Term = { id: number; slug: string };
  const [events, venues, organizers, categories, tags, occurrences, clock] = await env.DB.batch([
    env.DB.prepare(
      "SELECT id, slug, status, password_digest <> '' AS password, series_id AS series FROM events ORDER BY id",
    ),
    env.DB.prepare("SELECT id, slug, status FROM venues ORDER BY id"),
    env.DB.prepare("SELECT id, slug, status FROM organizers ORDER BY id"),
    env.DB.prepare("SELECT id, slug FROM terms WHERE taxonomy = 'tribe_events_cat' ORDER BY id"),
    env.DB.prepare("SELECT id, slug FROM terms WHERE taxonomy = 'post_tag' ORDER BY id"),
    // Recurring series (contract §7.8): the occurrences of each, and every event of one.
    env.DB.prepare(
      "SELECT id, series_id AS series FROM event_occurrences UNION ALL SELECT id, series_id FROM events WHERE series_id IS NOT NULL AND series_id <> id ORDER BY id",
    ),
    // The sync clock (contract §7.3): reads ask for what changed after recent positions.
    env.DB.prepare("SELECT seq FROM content_version WHERE id = 1"),
  ]);
  return {
    events: events.results as Array<Post & { password: number; series: number | null }>,
    occurrences: occurrences.results as Array<{ id: number; series: number }>,
    venues: venues.results as Post[],
    organizers: organizers.results as Post[],
    categories: categories.results as Term[],
    tags: tags.results as Term[],
    seq: (clock.results[0] as { seq: number }).seq,
  };
}
type World = Awaited<ReturnType<typeof world>>;

const WORDS = ["Jazz", "Market", "Talk", "Garden", "Concert", "Dojo", "Film", "Run"];
const STATUSES = ["publish", "publish", "publish", "draft", "pending", "private"];
/** The password of every protected event here (reads try it). */
export const PASSWORD = "s3cret";

const title = (r: Random) => `${r.pick(WORDS)} ${r.pick(WORDS)} ${r.int(1, 99)}`;
const ids = (items: Array<{ id: number }>) => items.map((i) => i.id);

/** The fields of an event write, each present by chance. */
function eventFields(r: Random, w: World, creating: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (creating || r.chance(0.4)) out.title = title(r);
  if (creating || r.chance(0.3)) {
    const start = r.int(-3, 40);
    out.start_date = day(start, `${String(r.int(8, 20)).padStart(2, "0")}:00:00`);
    out.end_date = day(start, "22:00:00");
  }
  if (creating ? r.chance(0.8) : r.chance(0.3)) out.status = r.pick(STATUSES);
  if (r.chance(0.3)) {
    const venues = w.venues.filter((v) => v.status !== "trash");
    out.venue = r.chance(0.2) || !venues.length ? { venue: title(r) } : r.pick(venues).id;
    if (!creating && r.chance(0.2)) out.venue = 0;
  }
  if (r.chance(0.3))
    out.organizer = r.some(ids(w.organizers.filter((o) => o.status !== "trash")), 2);
  if (r.chance(0.4)) out.categories = r.some(ids(w.categories));
  if (r.chance(0.4)) out.tags = r.some(ids(w.tags));
  if (r.chance(0.2)) out.featured = r.chance(0.5);
  if (r.chance(0.15)) out.password = r.chance(0.5) ? PASSWORD : "";
  if (!creating && r.chance(0.1)) out.status = "trash";
  // Recurring series (contract §7.8): a rule on a create or an update, or the repetition ended.
  if (r.chance(creating ? 0.25 : 0.1)) out.recurrence = r.pick(RULES);
  return out;
}

/**
 * Rules of the generated series: bounded, with and without RDATE and EXDATE lines, and one without
 * an end (its occurrences past the stored horizon are computed: contract §7.8).
 */
const RULES: unknown[] = [
  ["RRULE:FREQ=WEEKLY;INTERVAL=4"],
  ["RRULE:FREQ=WEEKLY;COUNT=4"],
  ["RRULE:FREQ=DAILY;INTERVAL=3;COUNT=5"],
  ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20300101T100000Z"],
  ["RRULE:FREQ=MONTHLY;COUNT=3"],
  ["RRULE:FREQ=DAILY;COUNT=6", "EXDATE;VALUE=DATE:20300102"],
  [],
];

/** The fields of a write of one occurrence: its own (an override), or with `scope=following` any. */
function occurrenceFields(r: Random, w: World): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.chance(0.6)) out.title = title(r);
  if (r.chance(0.3)) {
    const start = r.int(-3, 40);
    out.start_date = day(start, `${String(r.int(8, 20)).padStart(2, "0")}:00:00`);
    out.end_date = day(start, "22:00:00");
  }
  if (r.chance(0.3)) out.categories = r.some(ids(w.categories));
  if (r.chance(0.2)) out.featured = r.chance(0.5);
  if (r.chance(0.2)) {
    const venues = w.venues.filter((v) => v.status !== "trash");
    if (venues.length) out.venue = r.pick(venues).id;
  }
  return out;
}

/** A linked post's fields: venue or organizer. */
function linkedFields(r: Random, kind: "venue" | "organizer", creating: boolean) {
  const out: Record<string, unknown> = {};
  if (creating || r.chance(0.5)) out[kind] = title(r);
  if (kind === "venue" && r.chance(0.5)) out.city = r.pick(["Springfield", "Shelbyville", "Ogden"]);
  if (kind === "organizer" && r.chance(0.5)) out.phone = String(r.int(100, 999));
  if (r.chance(0.3)) out.status = r.pick(["publish", "publish", "draft", "trash"]);
  return out;
}

/** One generated operation: what it is (for the log) and how to do it. */
interface Operation {
  name: string;
  run: () => Promise<unknown>;
  /** Another isolate's write: reads must wait out the TTL. */
  elsewhere?: boolean;
}

/** Picks the next operation for the world as it is. */
function operation(r: Random, w: World): Operation {
  const event = w.events.length ? r.pick(w.events) : undefined;
  const linkedKind = r.pick(["venue", "organizer"] as const);
  const linked = (linkedKind === "venue" ? w.venues : w.organizers)[0]
    ? r.pick(linkedKind === "venue" ? w.venues : w.organizers)
    : undefined;
  const plural = `${linkedKind}s`;
  const taxonomy = r.pick(["categories", "tags"] as const);
  const term = w[taxonomy].length ? r.pick(w[taxonomy]) : undefined;
  const roll = r.int(1, 100);
  if (roll <= 20 || !event) {
    const body = eventFields(r, w, true);
    return {
      name: `create event ${JSON.stringify(body)}`,
      run: () => write("POST", `${NS}/events`, body),
    };
  }
  if (roll <= 36) {
    const body = eventFields(r, w, false);
    return {
      name: `update event ${event.id} ${JSON.stringify(body)}`,
      run: () => write("PATCH", `${NS}/events/${event.id}`, body),
    };
  }
  const occurrence = w.occurrences.length ? r.pick(w.occurrences) : undefined;
  if (occurrence && roll <= 44) {
    // One occurrence of a series: changed alone or with the following ones, or deleted.
    const scope = r.chance(0.3) ? "?scope=following" : "";
    if (r.chance(0.3))
      return {
        name: `delete occurrence ${occurrence.id}${scope}`,
        run: () => write("DELETE", `${NS}/events/${occurrence.id}${scope}`),
      };
    const body = occurrenceFields(r, w);
    return {
      name: `update occurrence ${occurrence.id}${scope} ${JSON.stringify(body)}`,
      run: () => write("PATCH", `${NS}/events/${occurrence.id}${scope}`, body),
    };
  }
  if (roll <= 45) {
    const force = r.chance(0.4);
    return {
      name: `delete event ${event.id}${force ? " force" : ""}`,
      run: () => write("DELETE", `${NS}/events/${event.id}${force ? "?force=true" : ""}`),
    };
  }
  if (roll <= 52 || !linked) {
    const body = linkedFields(r, linkedKind, true);
    return {
      name: `create ${linkedKind} ${JSON.stringify(body)}`,
      run: () => write("POST", `${NS}/${plural}`, body),
    };
  }
  if (roll <= 60) {
    const body = linkedFields(r, linkedKind, false);
    return {
      name: `update ${linkedKind} ${linked.id} ${JSON.stringify(body)}`,
      run: () => write("PATCH", `${NS}/${plural}/${linked.id}`, body),
    };
  }
  if (roll <= 63) {
    const force = r.chance(0.5);
    return {
      name: `delete ${linkedKind} ${linked.id}${force ? " force" : ""}`,
      run: () => write("DELETE", `${NS}/${plural}/${linked.id}${force ? "?force=true" : ""}`),
    };
  }
  if (roll <= 68 || !term) {
    const body = { name: title(r) };
    return {
      name: `create ${taxonomy} ${body.name}`,
      run: () => write("POST", `${NS}/${taxonomy}`, body),
    };
  }
  if (roll <= 73) {
    const body = r.chance(0.5) ? { name: title(r) } : { description: title(r) };
    return {
      name: `update ${taxonomy} ${term.id} ${JSON.stringify(body)}`,
      run: () => write("PATCH", `${NS}/${taxonomy}/${term.id}`, body),
    };
  }
  if (roll <= 76)
    return {
      name: `delete ${taxonomy} ${term.id}`,
      run: () => write("DELETE", `${NS}/${taxonomy}/${term.id}?force=true`),
    };
  if (roll <= 95) {
    // Another isolate's write, straight into D1: the triggers see it, this isolate does not.
    const statement = r.pick([
      `UPDATE events SET title = '${title(r)}' WHERE id = ${event.id}`,
      `UPDATE events SET status = '${r.pick(STATUSES)}' WHERE id = ${event.id}`,
      `UPDATE events SET featured = 1 - featured WHERE id = ${event.id}`,
      occurrence
        ? `UPDATE event_occurrences SET start_date = date(start_date, '+1 day') || substr(start_date, 11) WHERE id = ${occurrence.id}`
        : "SELECT 1",
      linked
        ? `UPDATE ${plural} SET title = '${title(r)}' WHERE id = ${linked.id}`
        : "UPDATE events SET sticky = 1 - sticky",
      term ? `UPDATE terms SET name = '${title(r)}' WHERE id = ${term.id}` : "SELECT 1",
    ]);
    return {
      name: `elsewhere: ${statement}`,
      run: () => env.DB.prepare(statement).run(),
      elsewhere: true,
    };
  }
  return {
    name: "recycle the isolate (memory gone; the Cache API stays)",
    run: async () => {
      clearMemory();
      forgetVersion();
    },
  };
}

/** The anonymous URLs to read in this world: lists with filters, singles by id and slug, feeds. */
function urls(r: Random, w: World): string[] {
  const event = w.events.length ? r.pick(w.events) : undefined;
  const occurrence = w.occurrences.length ? r.pick(w.occurrences) : undefined;
  const venue = w.venues.length ? r.pick(w.venues) : undefined;
  const organizer = w.organizers.length ? r.pick(w.organizers) : undefined;
  const category = w.categories.length ? r.pick(w.categories) : undefined;
  const tag = w.tags.length ? r.pick(w.tags) : undefined;
  const lang = r.pick(["", "", "/de"]);
  const ns = `${lang}${NS}`;
  const wp = `${lang}/wp-json/wp/v2`;
  const all = [
    `${ns}/events`,
    `${ns}/events?per_page=2&page=${r.int(1, 4)}`,
    `${ns}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01`,
    `${ns}/events?featured=1`,
    `${ns}/events?search=${r.pick(WORDS).toLowerCase()}`,
    `${ns}/events?status=publish&per_page=${r.int(1, 5)}`,
    category && `${ns}/events?categories=${r.chance(0.5) ? category.slug : category.id}`,
    tag && `${ns}/events?tags=${tag.id}`,
    venue && `${ns}/events?venue=${venue.id}`,
    organizer && `${ns}/events?organizer=${organizer.id}`,
    w.events.length && `${ns}/events?include=${ids(w.events).slice(0, 6).join(",")}`,
    event && `${ns}/events/${event.id}`,
    event && `${ns}/events/by-slug/${event.slug}`,
    event?.password && `${ns}/events/${event.id}?password=${PASSWORD}`,
    occurrence && `${ns}/events/${occurrence.id}`,
    occurrence && `${ns}/events?series=${occurrence.series}&per_page=${r.int(1, 5)}`,
    occurrence && `${ns}/events.ics?series=${occurrence.series}`,
    `${ns}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01&page=2`,
    `${ns}/events?per_page=${r.int(1, 20)}&start_date=2031-01-01&end_date=2032-12-31`,
    `${ns}/events.ics?start_date=2031-01-01&end_date=2031-12-31`,
    `${ns}/events?expand=false&per_page=${r.int(1, 10)}&start_date=2026-01-01&end_date=2032-12-31`,
    occurrence &&
      `${ns}/events/${occurrence.id}/instances?start_date=2026-01-01&end_date=2031-12-31&per_page=${r.int(1, 20)}`,
    event?.password && `${ns}/events?password=${PASSWORD}&per_page=50`,
    `${ns}/events.ics`,
    `${ns}/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01&sync_cursor=${Math.max(0, w.seq - r.int(0, 30))}`,
    `${ns}/deleted?sync_cursor=${Math.max(0, w.seq - r.int(0, 30))}`,
    `${ns}/venues?sync_cursor=${Math.max(0, w.seq - r.int(0, 30))}`,
    event && `${ns}/events.ics?include=${event.id}`,
    `${ns}/deleted?modified_after=2000-01-01T00:00:00Z`,
    `${ns}/venues`,
    venue && `${ns}/venues/${venue.id}`,
    venue && `${ns}/venues/by-slug/${venue.slug}`,
    event && `${ns}/venues?event=${event.id}`,
    `${ns}/organizers?per_page=3`,
    organizer && `${ns}/organizers/${organizer.id}`,
    event && `${ns}/organizers?event=${event.id}`,
    `${ns}/categories?hide_empty=${r.chance(0.5) ? "false" : "true"}`,
    category && `${ns}/categories/${category.id}`,
    `${ns}/tags`,
    tag && `${ns}/tags/${tag.id}`,
    `${ns}/venues?has_events=1`,
    `${ns}/events?_fields=events.id,events.title,events.venue.venue,total`,
    event && `${ns}/events/${event.id}?_envelope`,
    category && `${ns}/categories/${category.id}?_embed&_fields=id,name,_embedded`,
    // The read-only wp/v2 routes the terms' `_links` name (contract §3).
    `${wp}/tribe_events?per_page=${r.int(1, 5)}`,
    category && `${wp}/tribe_events?tribe_events_cat=${category.id}`,
    tag && `${wp}/tribe_events?tags=${tag.id}&_embed`,
    event && `${wp}/tribe_events/${event.id}`,
    event?.password && `${wp}/tribe_events/${event.id}?password=${PASSWORD}`,
    event && `${wp}/tribe_events_cat?post=${event.id}`,
    category && `${wp}/tribe_events_cat/${category.id}`,
    `${wp}/tags?hide_empty=1`,
    `${wp}/taxonomies`,
  ];
  return all.filter((u): u is string => typeof u === "string");
}

/**
 * What must be equal: status, the body (clock-derived defaults aside), ETag, paging headers, the
 * sync cursor.
 */
function comparable(a: Answer) {
  // The default `end_date` is "now + 24 months" to the second (§2.1): answers made in another second
  // echo another value in their links, cached or not.
  const clockFree = (s: string) =>
    s
      .replace(/end_date=\d{4}-\d{2}-\d{2}(?:\+|%20)\d{2}%3A\d{2}%3A\d{2}/g, "end_date=<now>")
      .replace(/"end_date":"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"/g, '"end_date":"<now>"');
  return {
    status: a.status,
    body: clockFree(a.text),
    etag: a.headers.get("etag"),
    total: a.headers.get("x-wp-total"),
    totalPages: a.headers.get("x-wp-totalpages"),
    link: clockFree(a.headers.get("link") ?? ""),
    type: a.headers.get("content-type"),
    cursor: a.headers.get("x-tec-sync-cursor"),
  };
}

/** Reads `path` twice with caches on and once off; returns what differs (empty when nothing). */
async function compare(path: string): Promise<string[]> {
  const request = () => new Request(`${ORIGIN}${path}`);
  const first = comparable(await send(request(), env));
  const again = comparable(await send(request(), env));
  const full = comparable(await send(request(), OFF));
  if (full.status >= 500)
    return [`the full path answered ${full.status}: ${full.body.slice(0, 300)}`];
  const out: string[] = [];
  for (const [label, cached] of [
    ["first", first],
    ["repeat", again],
  ] as const) {
    for (const key of Object.keys(full) as Array<keyof typeof full>) {
      if (cached[key] !== full[key])
        out.push(
          `${label} read, ${key}: cached ${JSON.stringify(cached[key])?.slice(0, 400)} ≠ full path ${JSON.stringify(full[key])?.slice(0, 400)}`,
        );
    }
  }
  return out;
}

/** What a run found. */
export interface DifferentialReport {
  steps: number;
  reads: number;
  failures: string[];
}

/**
 * Runs one generated sequence of `steps` operations, each followed by `readsPerStep` compared reads.
 * Stops at the first step with a difference.
 */
export async function runDifferential(
  seed: number,
  steps: number,
  readsPerStep: number,
): Promise<DifferentialReport> {
  const r = prng(seed);
  const clock = stopClock();
  const log: string[] = [];
  // A small calendar to start from.
  for (const name of ["Hall A", "Hall B"]) await write("POST", `${NS}/venues`, { venue: name });
  await write("POST", `${NS}/organizers`, { organizer: "Org A" });
  for (const name of ["Music", "Food"]) await write("POST", `${NS}/categories`, { name });
  await write("POST", `${NS}/tags`, { name: "Jazz" });
  let reads = 0;
  const seen: string[] = [];
  for (let step = 1; step <= steps; step++) {
    const w = await world();
    const op = operation(r, w);
    log.push(`${step}. ${op.name}`);
    await op.run();
    if (op.elsewhere) clock.advance(TTL);
    const candidates = urls(r, await world());
    for (let i = 0; i < readsPerStep; i++) {
      // Mostly URLs read before (their answers may be kept, and a stale one would show), else new.
      // After a write elsewhere, only those: this isolate was not told, its kept answers are the test.
      const path =
        seen.length && (op.elsewhere || r.chance(0.6)) ? r.pick(seen) : r.pick(candidates);
      if (!seen.includes(path)) seen.push(path);
      reads++;
      const diff = await compare(path);
      if (diff.length)
        return {
          steps: step,
          reads,
          failures: [`seed ${seed}, step ${step}, GET ${path}`, ...diff, "operations:", ...log],
        };
    }
  }
  return { steps, reads, failures: [] };
}
