/**
 * Occurrences past a series' stored horizon (contract §7.8), computed when a reader asks for them:
 * the rule's starts from the series' `horizon_gmt` on (src/events/series/regenerate.ts stores those
 * before it), each with the dates (src/events/series/expand.ts `occurrenceDates`), the id
 * (src/events/series/instance-ids.ts) and the copied series columns it will have once stored — so that a
 * list, a single GET and the feed show the same occurrence whether it is stored yet or not.
 *
 * What is computed per request is bounded: occurrences starting in the window (in each series'
 * wall clock, as the list's date filters compare; src/events/computed.ts `computedAsk` decides how
 * far it reaches), at most `MAX_COMPUTED` of them, those that start first.
 */
import type { EventRow } from "../record";
import { expand, localOf, occurrencesDates } from "./expand";
import { dayAfter, instanceId, readInstanceId } from "./instance-ids";
import { parseLines } from "./lines";
import type { OccurrenceRow } from "./occurrences";
import { COMPLETE, frameOf } from "./regenerate";

/** Most occurrences computed for one request (the earliest starts first). */
export const MAX_COMPUTED = 10_000;

/** Which computed occurrences a request asks for. */
export interface ComputedWindow {
  /** Starts on or after this wall clock (`Y-m-d H:i:s`; null: any). */
  from: string | null;
  /** Starts before this wall clock (`Y-m-d H:i:s`). */
  before: string;
}

/** Whether a series row has occurrences that are not stored (its rule goes on past its horizon). */
export const hasComputed = (row: EventRow) =>
  row.seriesId === row.id && row.horizonGmt !== null && row.horizonGmt !== COMPLETE;

/** The wall clock (series-local) from which a series' occurrences are computed, not stored. */
export const computedFrom = (row: EventRow) => localOf(row.horizonGmt ?? COMPLETE, row.timezone);

/**
 * The occurrence rows of a series starting at `starts` (series-local, ascending), those that have
 * a computed id; their dates computed together (src/events/series/expand.ts `occurrencesDates`).
 */
function occurrencesOf(row: EventRow, starts: string[]): OccurrenceRow[] {
  const named = starts.flatMap((start) => {
    const id = instanceId(row.id, row.startDate, start);
    return id === null ? [] : [{ id, start }];
  });
  const dates = occurrencesDates(
    row,
    named.map((n) => n.start),
  );
  return named.map(({ id, start }, i) => ({
    id,
    seriesId: row.id,
    occurrenceStart: start,
    ...dates[i],
    status: row.status,
    hideFromListings: row.hideFromListings,
    postDate: row.postDate,
    changedGmt: row.changedGmt,
  }));
}

/**
 * The starts of a series' rule from `from` (local; earlier ones may be missing) before `before`
 * (local), or none when its lines do not expand.
 */
function startsBefore(row: EventRow, from: string, before: string): string[] {
  try {
    const frame = frameOf(row);
    const rec = parseLines(row.recurrence ?? [], frame);
    return expand(rec, frame, before, { limit: Number.MAX_SAFE_INTEGER, strict: false, from })
      .starts;
  } catch (err) {
    // Lines that no longer expand (stored before a stricter check): nothing past what is stored.
    console.error(`series ${row.id}: occurrences not computed`, err);
    return [];
  }
}

/**
 * The occurrences of `series` (series rows, as read) that are not stored and start in `window`,
 * in the archive's order (start, post date, id), at most `MAX_COMPUTED`.
 * @example computedOccurrences(rows, { from: "2031-01-01 00:00:00", before: "2032-01-01 00:00:00" })
 */
export function computedOccurrences(series: EventRow[], window: ComputedWindow): OccurrenceRow[] {
  const out: OccurrenceRow[] = [];
  for (const row of series) {
    if (!hasComputed(row)) continue;
    const stored = computedFrom(row);
    if (stored >= window.before) continue;
    const picked: string[] = [];
    const from = window.from !== null && window.from > stored ? window.from : stored;
    for (const start of startsBefore(row, from, window.before)) {
      if (start < stored || (window.from !== null && start < window.from)) continue;
      picked.push(start);
      // The first `MAX_COMPUTED` of each series are all the earliest `MAX_COMPUTED` can take.
      if (picked.length >= MAX_COMPUTED) break;
    }
    out.push(...occurrencesOf(row, picked));
  }
  out.sort((a, b) =>
    a.startDate !== b.startDate
      ? a.startDate < b.startDate
        ? -1
        : 1
      : a.postDate !== b.postDate
        ? a.postDate < b.postDate
          ? -1
          : 1
        : a.id - b.id,
  );
  return out.slice(0, MAX_COMPUTED);
}

/**
 * The occurrence a computed id names, when its series (`row`, as read) gives it and has not
 * stored it: null for any other id, or a day the rule does not give.
 */
export function computedOccurrence(row: EventRow, id: number): OccurrenceRow | null {
  const named = readInstanceId(id);
  if (!named || named.seriesId !== row.id || !hasComputed(row)) return null;
  const day = dayAfter(row.startDate, named.days);
  const next = `${dayAfter(row.startDate, named.days + 1)} 00:00:00`;
  const start = startsBefore(row, `${day} 00:00:00`, next).find((s) => s.startsWith(day));
  if (!start || start < computedFrom(row)) return null;
  const o = occurrencesOf(row, [start])[0];
  return o?.id === id ? o : null;
}
