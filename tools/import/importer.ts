/**
 * Loads parsed VEVENTs into a running instance through its own REST API (contract §7.9): looks
 * the UIDs up (`GET /events?uid=…`, which ignores date windows), creates what is new
 * (`POST /events`), updates what differs (`PUT /events/{id}` with only the differing fields) and
 * leaves the rest alone, so a second import of the same file writes nothing.
 */
import { everyDate } from "../../src/events/date-fields";
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
  /** The file's recurring series (`parseIcs`): their occurrences held here but gone from the file are reported. */
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

/**
 * The occurrences of `series` this instance holds (read from its own iCalendar feed, whose UIDs
 * are the stored ones: `{series UID}#{key}`) that the file no longer has.
 * @throws ImportError when the feed cannot be read.
 */
async function removedOccurrences(
  req: Requester,
  series: IcsSeries[],
): Promise<ImportReport["removed"]> {
  if (series.length === 0) return [];
  const answer = await req.send(
    "GET",
    `/events.ics?${new URLSearchParams(everyDate("1970-01-01", "2999-12-31"))}&status=${STATUSES.replace(",trash", "")}`,
  );
  expectOk(
    answer,
    "reading this instance's iCalendar feed (for occurrences removed at the source)",
  );
  let feed: ReturnType<typeof scanCalendar>;
  try {
    feed = scanCalendar(answer.text);
  } catch (err) {
    throw new ImportError(`this instance's iCalendar feed is unreadable: ${String(err)}`, 200);
  }
  const bySeries = new Map(series.map((s) => [s.uid, { series: s, keys: new Set(s.keys) }]));
  const removed: ImportReport["removed"] = [];
  for (const vevent of feed.root.getAllSubcomponents("vevent")) {
    const uid = String(vevent.getFirstPropertyValue("uid") ?? "");
    const cut = uid.lastIndexOf("#");
    const known = cut > 0 ? bySeries.get(uid.slice(0, cut)) : undefined;
    if (known && !known.keys.has(uid.slice(cut + 1)))
      removed.push({
        uid,
        line: known.series.line,
        title: String(vevent.getFirstPropertyValue("summary") ?? known.series.title),
      });
  }
  return removed;
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

/**
 * Imports events: creates the new ones, updates the changed ones (only the differing fields),
 * leaves unchanged and trashed ones alone.
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
  const report: ImportReport = {
    total: events.length,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    notes: [],
    removed: [],
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

  try {
    const found = await lookup(
      req,
      events.map((e) => e.uid),
      limit,
    );
    const known = new Set([...found.values()].flatMap(existingKeys));
    const tasks: KeyedTask[] = [];
    const write = (keys: string[], send: () => Promise<boolean>, count: "created" | "updated") =>
      tasks.push({
        keys,
        run: async () => {
          // `false`: nothing was left to write (an update of a refused image only).
          const wrote = options.dryRun ? true : await send();
          report[wrote === false ? "unchanged" : count]++;
          progress("write");
        },
      });
    for (const e of events) {
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
    progress("lookup");
    await runKeyed(tasks, limit, known);
    report.removed = await removedOccurrences(req, options.series ?? []);
    return { ...report, requests: req.sent };
  } catch (err) {
    if (err instanceof ImportError) err.report = { ...report, requests: req.sent };
    throw err;
  }
}
