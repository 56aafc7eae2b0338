/**
 * Import from a running The Events Calendar site (contract §7.9): every page of its categories,
 * tags, venues, organizers and events is read (tools/import/tec/source.ts) and loaded into this
 * instance through its own REST API, links kept by mapping the source's ids to the new ones:
 *
 * - categories and tags: matched by slug, else by name (case-insensitively), under the mapped
 *   parent; parents first;
 * - venues and organizers: matched by the source's global id in their `global_id_lineage` (§4.1,
 *   recorded on create), else by name, case-insensitively (as the API's own duplicate check,
 *   contract §4 row 13); those only seen inside events (e.g. drafts, for an anonymous reader) come
 *   from the embedded copies;
 * - events: matched by the source's global id in their `global_id_lineage`, else by `uid` = the
 *   source's `global_id` (`GET /events?uid=…`, events imported before the lineage was kept); trashed
 *   ones are left in the trash. Password-protected ones (TEC lists them blanked, §4.7) are opened
 *   where the source allows it (tools/import/tec/protected.ts) and copied whole with their
 *   password; one whose password cannot be read is held back as a draft — with every field when the
 *   source opened it, else with its title and dates only — never published, never with a blank
 *   presented as its value, and a note names what is missing.
 *
 * Kept as the source has them (tools/import/tec/map.ts): post dates, costs with their currency,
 * and the source's global ids.
 *
 * New things are created, changed ones get an update naming only what differs, the rest is left
 * alone: a second run creates nothing and updates nothing. With an application password for the
 * source, drafts, pending, scheduled and private posts come too, and past events with them (events
 * are read from 1970 to 2999; TEC never lists events hidden from listings, so those cannot come).
 */
import { everyDate } from "../../../src/events/date-fields";
import { pageQuery } from "../../../src/http/list-args";
import { pagingOf } from "../../../src/http/pagination";
import {
  type Answer,
  expectOk,
  type ImportClient,
  Requester,
  type RetryOptions,
  sendWithoutBadImage,
} from "../client";
import { lookup } from "../importer";
import { runKeyed } from "../pool";
import {
  type EventLinks,
  isBlanked,
  legacyGlobalId,
  lineageOf,
  linkedChanges,
  linkedCreate,
  matchIds,
  plain,
  type StoredEvent,
  type TecEvent,
  type TecLinked,
  type TecTerm,
} from "./map";
import {
  copyChanges,
  copyCreate,
  heldNote,
  type Opened,
  openProtected,
  storedWhole,
} from "./protected";
import { type TecSource, walk } from "./source";

export type { TecSource } from "./source";

/** How to import. */
export interface TecImportOptions extends RetryOptions {
  /** Requests in flight at once for events (default 4). */
  concurrency?: number;
  /** Called after each step. */
  onProgress?: (kind: Kind, counts: Counts) => void;
}

export type Kind = "categories" | "tags" | "venues" | "organizers" | "events";

/** What happened to the things of one kind. */
export interface Counts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/** What an import did. */
export interface TecImportReport {
  counts: Record<Kind, Counts>;
  /**
   * Password-protected events of the source not copied whole: their password could not be read
   * (nor their protected fields, when the source did not open them). Each is created as a draft, or
   * its copy keeps its own status and password, and has a note saying what is missing. Counted
   * among created, updated or unchanged too.
   */
  incomplete: number;
  /** Things left alone, and why. */
  notes: string[];
  /** Requests to this instance (retries included). */
  requests: number;
}

/** Every status but trash (§6.1 `any`), for readers allowed to see them. */
const STATUSES = "publish,future,draft,pending,private";
/** Events of every date, at the source and here. */
const EVERY_DATE = everyDate("1970-01-01 00:00:00", "2999-12-31 23:59:59");
/** Every event of this instance an administrator can list, trashed ones included. */
const EVERYTHING = [
  ...Object.entries(EVERY_DATE).map(([k, v]) => `${k}=${encodeURIComponent(v)}`),
  `status=${STATUSES},trash`,
].join("&");
const PAGE = "50";

type TaxonomyKind = "categories" | "tags";
type LinkedKind = "venue" | "organizer";

/** Walks an archive of this instance (its links keep every filter). */
async function* walkTarget<T>(req: Requester, path: string, key: string): AsyncGenerator<T> {
  let page = 1;
  for (;;) {
    const answer: Answer<Record<string, unknown>> = await req.send(
      "GET",
      `${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams(pageQuery(PAGE, page))}`,
    );
    expectOk(answer, `reading ${path} of this instance`);
    const items = (answer.body[key] ?? []) as T[];
    for (const item of items) yield item;
    if (page >= (pagingOf(answer.body).pages ?? 0) || items.length === 0) return;
    page++;
  }
}

/**
 * Imports everything a TEC site shows its reader, password-protected events opened as far as the
 * source allows (tools/import/tec/protected.ts).
 * @param source the source's namespace root, `Authorization` (or none), passwords of its protected
 *   events (or none) and `fetch`.
 * @param target this instance's namespace root, an administrator's or editor's `Authorization` and `fetch`.
 * @returns counts per kind, how many events were held back (`incomplete`), notes on what was left
 *   alone or is missing, requests sent here.
 * @throws ImportError when the source cannot be read or this instance refuses a request (what was
 *   written stays; running again resumes, since everything is matched again).
 * @example await importTec({ base: "https://example.org/wp-json/tribe/events/v1", fetch }, { base, authorization, fetch })
 */
export async function importTec(
  source: TecSource,
  target: ImportClient,
  options: TecImportOptions = {},
): Promise<TecImportReport> {
  const retryDelayMs = options.retryDelayMs ?? 250;
  const req = new Requester(target, { retries: options.retries ?? 3, retryDelayMs });
  const blank = (): Counts => ({ created: 0, updated: 0, unchanged: 0, skipped: 0 });
  const report: TecImportReport = {
    counts: {
      categories: blank(),
      tags: blank(),
      venues: blank(),
      organizers: blank(),
      events: blank(),
    },
    incomplete: 0,
    notes: [],
    requests: 0,
  };
  const statuses: Record<string, string> = source.authorization ? { status: STATUSES } : {};
  const done = (kind: Kind, what: keyof Counts) => {
    report.counts[kind][what]++;
    options.onProgress?.(kind, report.counts[kind]);
  };

  // Terms: source id → target id.
  const termIds: Record<TaxonomyKind, Map<number, number>> = {
    categories: new Map(),
    tags: new Map(),
  };
  const targetTerms: Record<TaxonomyKind, TecTerm[]> = { categories: [], tags: [] };
  for (const kind of ["categories", "tags"] as const) {
    for await (const t of walkTarget<TecTerm>(req, `/${kind}?hide_empty=false`, kind))
      targetTerms[kind].push(t);
  }
  async function ensureTerm(
    kind: TaxonomyKind,
    t: TecTerm,
    all: Map<number, TecTerm>,
  ): Promise<number> {
    const known = termIds[kind].get(t.id);
    if (known !== undefined) return known;
    const parentSource = kind === "categories" && t.parent ? all.get(t.parent) : undefined;
    const parent = parentSource ? await ensureTerm(kind, parentSource, all) : 0;
    const name = plain(t.name);
    const stored =
      targetTerms[kind].find((x) => x.slug === t.slug) ??
      targetTerms[kind].find(
        (x) =>
          x.name.toLowerCase() === name.toLowerCase() &&
          (kind === "tags" || (x.parent ?? 0) === parent),
      );
    const fields: Record<string, unknown> = {
      name,
      ...(t.description ? { description: t.description } : {}),
      ...(kind === "categories" ? { parent } : {}),
    };
    if (!stored) {
      const answer = await req.send<TecTerm>("POST", `/${kind}`, { ...fields, slug: t.slug });
      expectOk(answer, `creating ${kind === "categories" ? "category" : "tag"} "${name}"`);
      targetTerms[kind].push(answer.body);
      termIds[kind].set(t.id, answer.body.id);
      done(kind, "created");
      return answer.body.id;
    }
    termIds[kind].set(t.id, stored.id);
    const changes = Object.fromEntries(
      Object.entries(fields).filter(
        ([k, v]) =>
          v !== ((stored as unknown as Record<string, unknown>)[k] ?? (k === "parent" ? 0 : "")),
      ),
    );
    if (Object.keys(changes).length) {
      expectOk(
        await req.send("PUT", `/${kind}/${stored.id}`, changes),
        `updating ${kind === "categories" ? "category" : "tag"} ${stored.id} "${name}"`,
      );
      done(kind, "updated");
    } else done(kind, "unchanged");
    return stored.id;
  }
  const sourceTerms: Record<TaxonomyKind, Map<number, TecTerm>> = {
    categories: new Map(),
    tags: new Map(),
  };
  for (const kind of ["categories", "tags"] as const) {
    for await (const t of walk<TecTerm>(
      source,
      `/${kind}`,
      { ...pageQuery(PAGE), hide_empty: "false" },
      kind,
      retryDelayMs,
    ))
      sourceTerms[kind].set(t.id, t);
    for (const t of sourceTerms[kind].values()) await ensureTerm(kind, t, sourceTerms[kind]);
  }

  // Venues and organizers: source id → target id.
  const linkedIds: Record<LinkedKind, Map<number, number>> = {
    venue: new Map(),
    organizer: new Map(),
  };
  // This instance's venues and organizers by name and by every global id in their lineage.
  const targetLinked: Record<LinkedKind, Map<string, TecLinked>> = {
    venue: new Map(),
    organizer: new Map(),
  };
  const linkedByLineage: Record<LinkedKind, Map<string, TecLinked>> = {
    venue: new Map(),
    organizer: new Map(),
  };
  const remember = (kind: LinkedKind, o: TecLinked) => {
    const name = plain(o[kind]).toLowerCase();
    if (!targetLinked[kind].has(name)) targetLinked[kind].set(name, o);
    for (const id of lineageOf(o)) linkedByLineage[kind].set(id, o);
  };
  const plural = (kind: LinkedKind) => (kind === "venue" ? "venues" : "organizers");
  for (const kind of ["venue", "organizer"] as const) {
    for await (const o of walkTarget<TecLinked>(
      req,
      `/${plural(kind)}?status=${STATUSES}`,
      plural(kind),
    ))
      remember(kind, o);
  }
  async function ensureLinked(kind: LinkedKind, o: TecLinked): Promise<number | null> {
    const known = linkedIds[kind].get(o.id);
    if (known !== undefined) return known;
    const name = plain(o[kind]);
    if (name === "") {
      // TEC blanks a password-protected venue's or organizer's name too (§4.7).
      report.notes.push(
        `${kind} ${o.id} of the source has no readable name (password protected?): skipped`,
      );
      done(plural(kind), "skipped");
      return null;
    }
    // The source's global id first (kept by an earlier run), else the name.
    const stored =
      matchIds(o, source.base)
        .map((id) => linkedByLineage[kind].get(id))
        .find((x) => x !== undefined) ?? targetLinked[kind].get(name.toLowerCase());
    const imageNote = (image: unknown) =>
      report.notes.push(
        `${kind} "${name}" (source id ${o.id}): image ${String(image)} is not an image this instance can use: left out`,
      );
    if (!stored) {
      const sent = await sendWithoutBadImage<TecLinked>(
        req,
        "POST",
        `/${plural(kind)}`,
        linkedCreate(kind, o),
      );
      if (sent.droppedImage !== undefined) imageNote(sent.droppedImage);
      const answer = sent.answer!;
      expectOk(answer, `creating ${kind} "${name}"`);
      remember(kind, answer.body);
      linkedIds[kind].set(o.id, Number(answer.body.id));
      done(plural(kind), "created");
      return Number(answer.body.id);
    }
    const id = Number(stored.id);
    linkedIds[kind].set(o.id, id);
    const changes = linkedChanges(kind, o, stored);
    const sent = Object.keys(changes).length
      ? await sendWithoutBadImage<TecLinked>(req, "PUT", `/${plural(kind)}/${id}`, changes)
      : { answer: null };
    if (sent.droppedImage !== undefined) imageNote(sent.droppedImage);
    if (sent.answer) {
      const answer = sent.answer;
      expectOk(answer, `updating ${kind} ${id} "${name}"`);
      targetLinked[kind].set(name.toLowerCase(), answer.body);
      remember(kind, answer.body);
      done(plural(kind), "updated");
    } else done(plural(kind), "unchanged");
    return id;
  }
  for (const kind of ["venue", "organizer"] as const) {
    for await (const o of walk<TecLinked>(
      source,
      `/${plural(kind)}`,
      { ...pageQuery(PAGE), ...statuses },
      plural(kind),
      retryDelayMs,
    ))
      await ensureLinked(kind, o);
  }

  // Events; the protected ones opened as far as the source allows, by source id.
  const events: TecEvent[] = [];
  const opened = new Map<number, Opened>();
  for await (const e of walk<TecEvent>(
    source,
    "/events",
    {
      ...pageQuery(PAGE),
      ...EVERY_DATE,
      ...statuses,
    },
    "events",
    retryDelayMs,
  )) {
    if (isBlanked(e)) opened.set(e.id, await openProtected(source, e, retryDelayMs));
    events.push(e);
  }
  const limit = Math.max(1, Math.floor(options.concurrency ?? 4));
  // This instance's events by the global ids in their lineage; those an earlier version imported
  // without one are found by `uid` (= the source's global id) instead.
  const byLineage = new Map<string, StoredEvent>();
  for await (const stored of walkTarget<StoredEvent>(req, `/events?${EVERYTHING}`, "events"))
    for (const id of lineageOf(stored)) byLineage.set(id, stored);
  const matched = (e: TecEvent) =>
    matchIds(e, source.base)
      .map((id) => byLineage.get(id))
      .find((x) => x !== undefined);
  // Their `uid` is the source's global id, as it was then (`legacyGlobalId`).
  const uidsOf = (e: TecEvent) => [
    e.global_id,
    ...[legacyGlobalId(e.global_id, source.base)].filter((u): u is string => u !== undefined),
  ];
  const found = await lookup(req, events.filter((e) => !matched(e)).flatMap(uidsOf), limit);
  const linksOf = async (e: TecEvent): Promise<EventLinks> => {
    const terms = async (kind: TaxonomyKind, list: TecTerm[]) => {
      const ids: number[] = [];
      for (const t of list) ids.push(await ensureTerm(kind, t, sourceTerms[kind]));
      return ids;
    };
    const venues = Array.isArray(e.venue) ? e.venue : [e.venue];
    const venue = venues[0] ? await ensureLinked("venue", venues[0]) : null;
    const organizers: number[] = [];
    for (const o of e.organizer) {
      const id = await ensureLinked("organizer", o);
      if (id !== null) organizers.push(id);
    }
    return {
      categories: await terms("categories", e.categories),
      tags: await terms("tags", e.tags),
      venue,
      organizers,
    };
  };
  const eventImageNote = (e: TecEvent, title: string, image: unknown) =>
    report.notes.push(
      `event "${title}" (source id ${e.id}): image ${String(image)} is not an image this instance can use: left out`,
    );
  // Links first, one at a time (they may create venues, organizers and terms), then the events in parallel.
  const tasks = [];
  for (const listed of events) {
    const open = opened.get(listed.id);
    const e = open?.event ?? listed;
    // A blanked event's links are not read: they are empty, or blanked copies of its venue and organizers.
    const links = open?.whole === false ? null : await linksOf(e);
    const copy =
      matched(e) ??
      (uidsOf(e)
        .map((uid) => found.get(uid))
        .find((x) => x !== undefined) as unknown as StoredEvent | undefined);
    const title = plain(e.title);
    // A protected event whose password could not be read: its copy is held back, with a note.
    const held = (id?: number) => {
      if (open?.password !== undefined || !open) return;
      report.incomplete++;
      report.notes.push(heldNote(open, id));
    };
    if (!copy) {
      held();
      const body = copyCreate(e, links, open);
      tasks.push({
        keys: [],
        run: async () => {
          const sent = await sendWithoutBadImage<{ data?: { params?: Record<string, unknown> } }>(
            req,
            "POST",
            "/events",
            body,
          );
          if (sent.droppedImage !== undefined) eventImageNote(e, title, sent.droppedImage);
          const answer = sent.answer!;
          if (answer.status === 400 && answer.body?.data?.params?.uid) {
            // Found by neither lineage nor uid, yet its uid is taken: hidden from listings here.
            report.notes.push(
              `event "${title}" (source id ${e.id}) exists here but is hidden from listings: left alone`,
            );
            done("events", "skipped");
            return;
          }
          expectOk(answer, `creating event "${title}" (source id ${e.id})`);
          done("events", "created");
        },
      });
    } else if (copy.status === "trash") {
      report.notes.push(`event ${copy.id} "${title}" is in the trash here: left there`);
      done("events", "skipped");
    } else {
      held(copy.id);
      const here = await storedWhole(req, copy, open?.password);
      const stored = here.event;
      const changes = copyChanges(e, links, here, open);
      if (Object.keys(changes).length === 0) done("events", "unchanged");
      else {
        tasks.push({
          keys: [],
          run: async () => {
            const sent = await sendWithoutBadImage(req, "PUT", `/events/${stored.id}`, changes);
            if (sent.droppedImage !== undefined) eventImageNote(e, title, sent.droppedImage);
            // The refused image was the only change: nothing was written.
            if (!sent.answer) return done("events", "unchanged");
            expectOk(sent.answer, `updating event ${stored.id} "${title}" (source id ${e.id})`);
            done("events", "updated");
          },
        });
      }
    }
  }
  await runKeyed(tasks, limit, new Set());
  return { ...report, requests: req.sent };
}
