/**
 * What an iCalendar import tells its caller, as it goes and at the end (`importEvents`,
 * tools/import/importer.ts), and what an `ImportError` carries when the import stops.
 */

/**
 * Counts so far. `done` = created + updated + unchanged + skipped. What is counted: each event that
 * does not recur, each recurring series (one event with `recurrence`) and each of its changed
 * occurrences (an override: `updated` when written), and each copy of a series imported as
 * separate occurrences.
 */
export interface ImportProgress {
  phase: "lookup" | "write";
  total: number;
  done: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
}

/** What an import did (or, in a dry run, would do). */
export interface ImportReport extends Omit<ImportProgress, "phase" | "done"> {
  /** Events left alone, and why (e.g. in the trash). */
  notes: Array<{ uid: string; line: number; message: string }>;
  /**
   * Occurrences this instance holds as separate events (`{UID}#{start}`, a series imported as
   * copies because the instance refused its rule) that the file no longer has (removed at the
   * source by an EXDATE, a shorter rule or a cancellation): left here, for the user to delete.
   * `line` is the series' VEVENT. (A series imported as a series follows its lines instead.)
   */
  removed: Array<{ uid: string; line: number; title: string }>;
  /**
   * Series whose occurrences an earlier importer had made as separate events (UIDs
   * `{UID}#{start}`), merged into the series on this run: `series` is the series' id (the id of the
   * copy of its first occurrence, which became the series), `copies` how many copies it replaced
   * (that one included; the others are deleted). `line` is the series' VEVENT.
   */
  merged: Array<{ uid: string; line: number; series: number; copies: number }>;
  /** HTTP requests sent, retries included. */
  requests: number;
}

/**
 * The first and last day (`Y-m-d`, as written: wall clock, or UTC for UTC times) the events start
 * on; null without events.
 * @example dateRange(events) // { first: "2025-05-14", last: "2025-05-22" }
 */
export function dateRange(
  events: Array<{ dates: { kind: string; start?: string; startUtc?: string } }>,
): { first: string; last: string } | null {
  const days = events
    .map((e) => (e.dates.start ?? e.dates.startUtc ?? "").slice(0, 10))
    .filter((d) => d !== "")
    .sort();
  return days.length ? { first: days[0], last: days[days.length - 1] } : null;
}
