/**
 * Loads parsed VEVENTs into a running instance through its own REST API (contract §7.9): looks
 * the UIDs up (`GET /events?uid=…`, which ignores date windows), creates what is new
 * (`POST /events`), updates what differs (`PUT /events/{id}` with only the differing fields) and
 * leaves the rest alone, so a second import of the same file writes nothing. A recurring series is
 * one event with `recurrence` lines (contract §7.8), its changed occurrences overrides written by
 * occurrence id, and the copies of its occurrences an earlier importer made (`{UID}#{start}`)
 * merged into it (see `importEvents`).
 */
import { everyDate } from "../../src/events/date-fields";
import { parseLines } from "../../src/events/series/lines";
import { pageQuery } from "../../src/http/list-args";
import { canonicalZoneName, resolveZone } from "../../src/time/zone";
import {
  type Answer,
  expectOk,
  type ImportClient,
  Requester,
  type RetryOptions,
  sendWithoutBadImage,
} from "./client";
import { ImportError } from "./errors";
import type { IcsEvent, IcsSeries } from "./ics";
import {
  type EventBody,
  eventBody,
  eventChanges,
  existingKeys,
  linkedKeys,
  type RemoteEvent,
} from "./payload";
import { type KeyedTask, runKeyed } from "./pool";
import { occurrenceStart } from "./recurrence";
import type { ImportProgress, ImportReport } from "./report";
import { scanCalendar } from "./scan";

export type { FetchLike, ImportClient } from "./client";
export type { ImportProgress, ImportReport } from "./report";

/** How to import. */
export interface ImportOptions extends RetryOptions {
  /** IANA zone for events the file gives none (UTC times, floating times, all-day dates); default: the site's. */
  timezone?: string;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Look everything up, write nothing; the report says what would have been done. */
  dryRun?: boolean;
  /** Called after the lookups and after every write. */
  onProgress?: (progress: ImportProgress) => void;
  /** The file's recurring series (`parseIcs`): each imported as one event with `recurrence` and overrides. */
  series?: IcsSeries[];
}

/** Statuses an administrator may list; trash included so that a trashed event is recognized. */
const STATUSES = "publish,future,draft,pending,private,trash";
/**
 * UIDs per lookup. The filter takes up to 100, but the server currently answers 500 (D1 "too many
 * SQL variables": 100 bound parameters per statement, its list query repeats the filter) from about
 * 26 UIDs on; 20 stays well below.
 */
const CHUNK = 20;
const CHUNK_CHARS = 1500;

/**
 * The `uid` filter of `GET /events`. The server splits the value on commas and URL-decodes each
 * piece once more (`list_to_array`), so `%` is escaped twice; UIDs never contain commas (parseIcs).
 */
const uidQuery = (uids: string[]) =>
  `uid=${uids.map((u) => encodeURIComponent(u.replace(/%/g, "%25"))).join(",")}&status=${STATUSES}`;

function chunks(uids: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const uid of uids) {
    const size = encodeURIComponent(uid).length + 1;
    if (current.length && (current.length === CHUNK || chars + size > CHUNK_CHARS)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(uid);
    chars += size;
  }
  if (current.length) out.push(current);
  return out;
}

type EventList = { events?: RemoteEvent[]; total?: number };

/**
 * Finds the stored events of these UIDs (trashed ones too), `CHUNK` per request. The event objects do not say their UID, so
 * for a chunk with matches each UID of it is then looked up alone (unless the server echoes `uid`).
 */
export async function lookup(
  req: Requester,
  uids: string[],
  limit: number,
): Promise<Map<string, RemoteEvent>> {
  const found = new Map<string, RemoteEvent>();
  const single: string[] = [];
  const byChunk: KeyedTask[] = chunks(uids).map((chunk) => ({
    keys: [],
    run: async () => {
      const answer: Answer<EventList> = await req.send(
        "GET",
        `/events?${uidQuery(chunk)}&${new URLSearchParams(pageQuery(CHUNK))}`,
      );
      expectOk(answer, `looking up ${chunk.length} UIDs`);
      const list = answer.body?.events ?? [];
      if (list.length && list.every((e) => typeof e.uid === "string"))
        for (const e of list) found.set(e.uid!, e);
      else if (list.length) single.push(...chunk);
    },
  }));
  await runKeyed(byChunk, limit, new Set());
  const byUid: KeyedTask[] = single.map((uid) => ({
    keys: [],
    run: async () => {
      const answer: Answer<EventList> = await req.send(
        "GET",
        `/events?${uidQuery([uid])}&${new URLSearchParams(pageQuery(1))}`,
      );
      expectOk(answer, `looking up UID ${uid}`);
      const event = answer.body?.events?.[0];
      if (event) found.set(uid, event);
    },
  }));
  await runKeyed(byUid, limit, new Set());
  return found;
}

/** An event held as a copy of one occurrence of a series (UID `{series UID}#{key}`). */
interface HeldCopy {
  uid: string;
  key: string;
  title: string;
}

/**
 * The occurrences of `series` this instance holds as separate events (UIDs `{series UID}#{key}`:
 * what an earlier importer made, or the copies of a series whose rule the instance refused), by
 * series UID. Read from the instance's own iCalendar feed, whose UIDs are the stored ones; trashed
 * events are not in it.
 * @throws ImportError when the feed cannot be read.
 */
async function heldCopies(req: Requester, series: IcsSeries[]): Promise<Map<string, HeldCopy[]>> {
  const out = new Map<string, HeldCopy[]>();
  if (series.length === 0) return out;
  const answer = await req.send(
    "GET",
    `/events.ics?${new URLSearchParams(everyDate("1970-01-01", "2999-12-31"))}&status=${STATUSES.replace(",trash", "")}`,
  );
  expectOk(answer, "reading this instance's iCalendar feed (for occurrences held as events)");
  let feed: ReturnType<typeof scanCalendar>;
  try {
    feed = scanCalendar(answer.text);
  } catch (err) {
    throw new ImportError(`this instance's iCalendar feed is unreadable: ${String(err)}`, 200);
  }
  const uids = new Set(series.map((s) => s.uid));
  for (const vevent of feed.root.getAllSubcomponents("vevent")) {
    const uid = String(vevent.getFirstPropertyValue("uid") ?? "");
    const cut = uid.lastIndexOf("#");
    const of = cut > 0 ? uid.slice(0, cut) : "";
    if (!uids.has(of) || vevent.getFirstProperty("recurrence-id")) continue;
    const list = out.get(of) ?? [];
    if (!list.some((c) => c.uid === uid))
      list.push({
        uid,
        key: uid.slice(cut + 1),
        title: String(vevent.getFirstPropertyValue("summary") ?? ""),
      });
    out.set(of, list);
  }
  for (const list of out.values()) list.sort((a, b) => (a.key < b.key ? -1 : 1));
  return out;
}

const label = (e: IcsEvent) =>
  `"${e.title.length > 50 ? `${e.title.slice(0, 47)}...` : e.title}" (UID ${e.uid}, line ${e.line})`;

/** The note for an image the instance refused (tools/import/client.ts `sendWithoutBadImage`). */
const imageNote = (e: IcsEvent, image: unknown) => ({
  uid: e.uid,
  line: e.line,
  message: `image ${String(image)} is not an image this instance can use (it answers no image type): imported without it`,
});

async function create(
  req: Requester,
  e: IcsEvent,
  body: EventBody,
  notes: ImportReport["notes"],
): Promise<boolean> {
  const sent = await sendWithoutBadImage<{ data?: { params?: Record<string, unknown> } }>(
    req,
    "POST",
    "/events",
    body as Record<string, unknown>,
  );
  if (sent.droppedImage !== undefined) notes.push(imageNote(e, sent.droppedImage));
  const answer = sent.answer!;
  if (answer.status === 400 && answer.attempts > 1 && answer.body?.data?.params?.uid) {
    // A retried create whose first attempt was stored after all: the UID is taken by it.
    const again = await req.send<EventList>(
      "GET",
      `/events?${uidQuery([e.uid])}&${new URLSearchParams(pageQuery(1))}`,
    );
    if (again.status === 200 && again.body?.events?.length) return true;
  }
  expectOk(answer, `creating ${label(e)}`);
  return true;
}

/** @returns false when nothing was left to write (the refused image was the only change). */
async function update(
  req: Requester,
  id: number,
  e: IcsEvent,
  changes: EventBody,
  notes: ImportReport["notes"],
): Promise<boolean> {
  const sent = await sendWithoutBadImage(
    req,
    "PUT",
    `/events/${id}`,
    changes as Record<string, unknown>,
  );
  if (sent.droppedImage !== undefined) notes.push(imageNote(e, sent.droppedImage));
  if (!sent.answer) return false;
  expectOk(sent.answer, `updating event ${id} from ${label(e)}`);
  return true;
}

/** The 400 of a write whose `recurrence` the instance refuses (contract §7.8), if it is one. */
function refusedRecurrence(answer: Answer | null): string | null {
  const body = answer?.body as
    | { code?: string; message?: string; data?: { params?: Record<string, string> } }
    | undefined;
  if (answer?.status !== 400 || !body?.data?.params?.recurrence) return null;
  return String(body.data.params.recurrence);
}

/** Whether two `recurrence` line lists say the same, read as the API reads them in `r`'s frame. */
function sameLines(a: readonly string[], b: readonly string[], r: RemoteEvent): boolean {
  const frame = { timezone: r.timezone, allDay: r.all_day === true, start: r.start_date };
  try {
    return JSON.stringify(parseLines(a, frame)) === JSON.stringify(parseLines(b, frame));
  } catch {
    return false;
  }
}

/** A series of the file that has lines for the API. */
type LinedSeries = IcsSeries & { recurrence: { lines: string[] } };

/**
 * Imports events: creates the new ones, updates the changed ones (only the differing fields),
 * leaves unchanged and trashed ones alone. Recurring series (`options.series`) are written as one
 * event each with their `recurrence` lines, then their RECURRENCE-ID changes as overrides of the
 * occurrences (`PATCH /events/{occurrence id}`, the occurrence found by its
 * `series.occurrence_start`); a cancelled occurrence is an EXDATE of the lines. Each series and
 * each override counts once in `total` and in created/updated/unchanged/skipped. A series whose
 * rule has no API form (`IcsSeries.recurrence.reason`) or whose lines the instance refuses (400
 * naming `recurrence`, when the series is not stored yet) is imported as before, one event per
 * occurrence (`IcsSeries.copies`), with a note. Copies an earlier importer made (`{UID}#{start}`)
 * of a series now imported as one are merged into it (`report.merged`).
 * @param client the instance's namespace root, an `Authorization` header for an editor or
 *   administrator, and the `fetch` to use.
 * @param events from `parseIcs`, already validated (nothing is sent for an invalid file).
 * @returns the counts, the notes on events left alone, and the number of requests.
 * An `IMAGE` the instance refuses (its URL answers no image type) is left out with a
 *   note; the event is imported without it.
 * @throws Error for an unknown `timezone` option (before any request); ImportError when the server
 *   refuses a request (after retrying network errors, 5xx and 429): no new request starts after it,
 *   the events already written stay, and running the import again resumes (events are matched by UID).
 * @example
 * const report = await importEvents({ base, authorization, fetch }, parseIcs(text).events, { onProgress: console.log });
 * report // { total: 224, created: 224, updated: 0, unchanged: 0, skipped: 0, notes: [], requests: 236 }
 */
export async function importEvents(
  client: ImportClient,
  events: IcsEvent[],
  options: ImportOptions = {},
): Promise<ImportReport> {
  if (options.timezone !== undefined && !resolveZone(options.timezone))
    throw new Error(
      `unknown time zone "${options.timezone}" (use an IANA name such as America/New_York)`,
    );
  const timezone = options.timezone !== undefined ? canonicalZoneName(options.timezone) : undefined;
  const req = new Requester(client, {
    retries: options.retries ?? 3,
    retryDelayMs: options.retryDelayMs ?? 250,
  });
  const limit = Math.max(1, Math.floor(options.concurrency ?? 4));
  const series = options.series ?? [];
  const lined = series.filter((s): s is LinedSeries => "lines" in s.recurrence);
  const copied = series.filter((s) => !("lines" in s.recurrence));
  const report: ImportReport = {
    total:
      events.length +
      lined.reduce((n, s) => n + 1 + s.overrides.length, 0) +
      copied.reduce((n, s) => n + s.copies.length, 0),
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    notes: [],
    removed: [],
    merged: [],
    requests: 0,
  };
  const progress = (phase: ImportProgress["phase"]) => {
    const { total, created, updated, unchanged, skipped } = report;
    options.onProgress?.({
      phase,
      total,
      done: created + updated + unchanged + skipped,
      created,
      updated,
      unchanged,
      skipped,
    });
  };
  const count = (what: "created" | "updated" | "unchanged" | "skipped") => {
    report[what]++;
    progress("write");
  };

  /** The existing path: each event by its UID, created, updated or left alone. */
  const importSingles = async (list: IcsEvent[], phase: boolean) => {
    const found = await lookup(
      req,
      list.map((e) => e.uid),
      limit,
    );
    const known = new Set([...found.values()].flatMap(existingKeys));
    const tasks: KeyedTask[] = [];
    const write = (keys: string[], send: () => Promise<boolean>, what: "created" | "updated") =>
      tasks.push({
        keys,
        run: async () => {
          // `false`: nothing was left to write (an update of a refused image only).
          const wrote = options.dryRun ? true : await send();
          count(wrote === false ? "unchanged" : what);
        },
      });
    for (const e of list) {
      const stored = found.get(e.uid);
      if (!stored) {
        const body = eventBody(e, { timezone });
        write(linkedKeys(body), () => create(req, e, body, report.notes), "created");
      } else if (stored.status === "trash") {
        report.skipped++;
        report.notes.push({
          uid: e.uid,
          line: e.line,
          message: `event ${stored.id} is in the trash: left there`,
        });
      } else {
        const changes = eventChanges(e, stored, { timezone });
        if (Object.keys(changes).length === 0) report.unchanged++;
        else
          write(
            linkedKeys(changes),
            () => update(req, stored.id, e, changes, report.notes),
            "updated",
          );
      }
    }
    if (phase) progress("lookup");
    await runKeyed(tasks, limit, known);
  };

  try {
    for (const s of copied)
      report.notes.push({
        uid: s.uid,
        line: s.line,
        message: `imported as ${s.copies.length} separate occurrences ({UID}#{start}): ${(s.recurrence as { reason: string }).reason}`,
      });
    await importSingles([...events, ...copied.flatMap((s) => s.copies)], true);
    const held = await heldCopies(req, series);
    const seriesFound = await lookup(
      req,
      lined.map((s) => s.uid),
      limit,
    );
    const refused: IcsSeries[] = [];
    for (const s of lined) {
      const outcome = await importSeries(s, seriesFound.get(s.uid), held.get(s.uid) ?? []);
      if (outcome === "refused") refused.push(s);
    }
    if (refused.length) {
      report.total += refused.reduce((n, s) => n + s.copies.length - 1 - s.overrides.length, 0);
      await importSingles(
        refused.flatMap((s) => s.copies),
        false,
      );
    }
    for (const s of [...copied, ...refused]) {
      const keys = new Set(s.keys);
      for (const copy of held.get(s.uid) ?? [])
        if (!keys.has(copy.key))
          report.removed.push({ uid: copy.uid, line: s.line, title: copy.title || s.title });
    }
    return { ...report, requests: req.sent };
  } catch (err) {
    if (err instanceof ImportError) err.report = { ...report, requests: req.sent };
    throw err;
  }

  /**
   * One series: created (or made of the copy of its first occurrence), updated or left alone, its
   * copies merged, then its overrides.
   * @returns "refused" when the instance refuses its lines and it is not stored yet (nothing was written).
   */
  async function importSeries(
    s: LinedSeries,
    stored: RemoteEvent | undefined,
    copies: HeldCopy[],
  ): Promise<"refused" | undefined> {
    const e = s.event;
    const lines = s.recurrence.lines;
    // RFC 5545 expands a rule with a UTC DTSTART in UTC: so is the series, whatever --timezone says.
    const zone = e.dates.kind === "utc" ? "UTC" : timezone;
    const heldIds = copies.length
      ? await lookup(
          req,
          copies.map((c) => c.uid),
          limit,
        )
      : new Map<string, RemoteEvent>();
    const copyEvents = copies.flatMap((c) => (heldIds.get(c.uid) ? [heldIds.get(c.uid)!] : []));
    let saved: RemoteEvent | undefined = stored;
    let reused: RemoteEvent | undefined;
    if (stored?.status === "trash") {
      count("skipped");
      report.notes.push({
        uid: s.uid,
        line: s.line,
        message: `event ${stored.id} is in the trash: left there`,
      });
      return undefined;
    }
    if (!stored) {
      // The copy of the first occurrence, if an earlier import made copies, becomes the series.
      reused = copyEvents[0];
      const body: EventBody = reused
        ? { ...eventChanges(e, reused, { timezone: zone }), uid: s.uid, recurrence: lines }
        : { ...eventBody(e, { timezone: zone }), recurrence: lines };
      if (options.dryRun) {
        count(reused ? "updated" : "created");
      } else {
        const sent = await sendWithoutBadImage<RemoteEvent>(
          req,
          reused ? "PUT" : "POST",
          reused ? `/events/${reused.id}` : "/events",
          body as Record<string, unknown>,
        );
        if (sent.droppedImage !== undefined) report.notes.push(imageNote(e, sent.droppedImage));
        const why = refusedRecurrence(sent.answer);
        if (why !== null) {
          report.notes.push({
            uid: s.uid,
            line: s.line,
            message: `this instance refuses the series' recurrence (${why}): imported as ${s.copies.length} separate occurrences ({UID}#{start})`,
          });
          return "refused";
        }
        expectOk(sent.answer!, `${reused ? "updating" : "creating"} the series ${label(e)}`);
        saved = sent.answer!.body;
        count(reused ? "updated" : "created");
      }
    } else {
      const changes: EventBody = eventChanges(e, stored, { timezone: zone });
      const datesChange = "start_date" in changes || "end_date" in changes;
      if (datesChange || !stored.series || !sameLines(stored.series.recurrence, lines, stored))
        changes.recurrence = lines;
      if (Object.keys(changes).length === 0) count("unchanged");
      else if (options.dryRun) count("updated");
      else {
        const sent = await sendWithoutBadImage<RemoteEvent>(
          req,
          "PUT",
          `/events/${stored.id}`,
          changes as Record<string, unknown>,
        );
        if (sent.droppedImage !== undefined) report.notes.push(imageNote(e, sent.droppedImage));
        const why = refusedRecurrence(sent.answer);
        if (why !== null) {
          // Stored already as a series: copies are not made beside it; it stays as it was, and its
          // occurrences' changes are still compared.
          count("skipped");
          report.notes.push({
            uid: s.uid,
            line: s.line,
            message: `this instance refuses the series' new recurrence (${why}): the series ${stored.id} is left as it was`,
          });
        } else {
          if (sent.answer) {
            expectOk(sent.answer, `updating the series ${stored.id} from ${label(e)}`);
            saved = sent.answer.body;
          }
          count(sent.answer ? "updated" : "unchanged");
        }
      }
    }
    // The other copies go for good (`force=true`): the series now holds those occurrences, and a
    // trashed copy would keep its `{UID}#{start}` UID, which a later import would find again and
    // which would list every occurrence twice in the trash. `/deleted` tells sync clients.
    const others = copyEvents.filter((c) => c.id !== reused?.id);
    if (copyEvents.length) {
      if (!options.dryRun)
        await runKeyed(
          others.map((c) => ({
            keys: [],
            run: async () => {
              const answer = await req.send("DELETE", `/events/${c.id}?force=true`);
              if (answer.status !== 404)
                expectOk(answer, `deleting event ${c.id}, a copy of an occurrence of ${label(e)}`);
            },
          })),
          limit,
          new Set(),
        );
      report.merged.push({
        uid: s.uid,
        line: s.line,
        series: saved?.id ?? reused?.id ?? 0,
        copies: copyEvents.length,
      });
    }
    if (s.overrides.length) await importOverrides(s, saved, zone);
    // Also when the file has no RECURRENCE-ID left: those an earlier run wrote go back.
    if (saved && (stored || reused)) await revertDropped(s, saved);
    return undefined;
  }

  /** The RECURRENCE-ID changes of a series, each a PATCH of its occurrence (when it differs). */
  async function importOverrides(
    s: LinedSeries,
    saved: RemoteEvent | undefined,
    zone: string | undefined,
  ): Promise<void> {
    if (!saved) {
      // A dry run of a series not written yet: each change would be written.
      for (const _ of s.overrides) count("updated");
      return;
    }
    const byStart = new Map<string, RemoteEvent>();
    for (let page = 1; ; page++) {
      const answer: Answer<EventList & { total_pages?: number }> = await req.send(
        "GET",
        `/events?series=${saved.id}&${new URLSearchParams({ ...everyDate("1970-01-01", "2999-12-31"), ...pageQuery(50, page) })}&status=${STATUSES.replace(",trash", "")}`,
      );
      expectOk(answer, `listing the occurrences of the series ${saved.id}`);
      for (const o of answer.body?.events ?? [])
        if (o.series) byStart.set(o.series.occurrence_start, o);
      if (page >= (answer.body?.total_pages ?? 1)) break;
    }
    for (const { key, event } of s.overrides) {
      const start = occurrenceStart(key, saved.timezone);
      const occurrence = byStart.get(start);
      if (!occurrence || occurrence.id === saved.id) {
        count("skipped");
        report.notes.push({
          uid: event.uid,
          line: event.line,
          message: occurrence
            ? "RECURRENCE-ID names the series' first occurrence, which is the series itself: a change of it would change every occurrence, so it is left out"
            : `RECURRENCE-ID names no occurrence of the series ${saved.id} (none starts at ${start}): left out`,
        });
        continue;
      }
      const changes = eventChanges(event, occurrence, { timezone: zone });
      if (Object.keys(changes).length === 0) count("unchanged");
      else if (options.dryRun) count("updated");
      else {
        // With the series' UID: the instance marks the override as this import's (contract §7.9).
        const sent = await sendWithoutBadImage(req, "PATCH", `/events/${occurrence.id}`, {
          ...(changes as Record<string, unknown>),
          uid: s.uid,
        });
        if (sent.droppedImage !== undefined) report.notes.push(imageNote(event, sent.droppedImage));
        if (sent.answer)
          expectOk(sent.answer, `changing occurrence ${occurrence.id} from ${label(event)}`);
        count(sent.answer ? "updated" : "unchanged");
      }
    }
  }

  /**
   * The overrides of the stored series that the file no longer has (no RECURRENCE-ID names them):
   * each reverted to the occurrence its rule gives (`PATCH … {uid, revert: true}`, contract §7.9)
   * when this import wrote it last; one changed through the API since is left alone, with a note.
   */
  async function revertDropped(s: LinedSeries, saved: RemoteEvent): Promise<void> {
    const inFile = new Set(s.overrides.map(({ key }) => occurrenceStart(key, saved.timezone)));
    const dropped: RemoteEvent[] = [];
    for (let page = 1; ; page++) {
      const answer: Answer<EventList & { total_pages?: number }> = await req.send(
        "GET",
        `/events?expand=false&series=${saved.id}&${new URLSearchParams({ ...everyDate("1970-01-01", "2999-12-31"), ...pageQuery(50, page) })}&status=${STATUSES.replace(",trash", "")}`,
      );
      expectOk(answer, `listing the overrides of the series ${saved.id}`);
      for (const o of answer.body?.events ?? [])
        if (o.id !== saved.id && o.series && !inFile.has(o.series.occurrence_start))
          dropped.push(o);
      if (page >= (answer.body?.total_pages ?? 1)) break;
    }
    for (const o of dropped) {
      report.total++;
      if (options.dryRun) {
        count("updated");
        continue;
      }
      const answer = await req.send("PATCH", `/events/${o.id}`, { uid: s.uid, revert: true });
      if (answer.status === 409) {
        count("skipped");
        report.notes.push({
          uid: s.uid,
          line: s.line,
          message: `the changed occurrence ${o.id} (${o.series!.occurrence_start}) is no longer in the file, but was changed since an import wrote it (or not written by one): left as it is`,
        });
        continue;
      }
      expectOk(answer, `reverting occurrence ${o.id} of the series ${saved.id}`);
      count("updated");
    }
  }
}
