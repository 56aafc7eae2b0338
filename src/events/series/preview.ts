/**
 * `GET {namespace}/recurrence` (contract §7.8, "Preview of unsaved lines"): the first occurrences
 * that `recurrence` lines would give an event with these dates, before anything is written — what
 * the calendar editor's rule builder shows. The arguments are `POST /events`'s for the dates and the
 * rule (`start_date`, `end_date` — optional here, defaulted as a write defaults it —, `all_day`,
 * `timezone`, `recurrence`), read and checked by the same code as that write's: the same dates
 * (src/events/write-dates.ts), the same series start (src/events/series/start.ts), the same stored
 * lines and starts up to the same horizon (src/events/series/regenerate.ts `seriesStarts`), so the
 * same 400 naming the same argument with the same message. It needs what `POST /events` needs
 * (`edit_posts`: contributors and up; anonymous 401), writes nothing and is never cached.
 */
import * as v from "valibot";
import { can } from "../../access/capabilities";
import { type ArgSpecs, parseArgs, unrequired } from "../../http/args";
import { type AppContext, argContext, requestNow, requestParams } from "../../http/context";
import { forbidden } from "../../http/errors";
import { pageArgs } from "../../http/list-args";
import { d, int, str } from "../../http/schema-kit";
import { DATE_ARG, DATE_ARGS, dateInputs } from "../date-fields";
import type { EventRow } from "../record";
import { CREATE_ARGS } from "../write-args";
import { eventDates } from "../write-dates";
import { expand, occurrencesDates } from "./expand";
import { MAX_DATES, parseLines, type Recurrence } from "./lines";
import { frameOf, seriesStarts, storedBounds } from "./regenerate";
import { recurrenceInvalid } from "./save";
import { seriesStart } from "./start";
import { rfc3339 } from "./views";

/** The most occurrences a preview counts for `total` (what a read computes at most, contract §7.8). */
export const PREVIEW_COUNT_MAX = 10_000;

/** Past every window: the preview lists and counts up to the rule's end. */
const NO_BOUND = "9999-12-31 23:59:59";

const dates = Object.fromEntries(DATE_ARGS.map((name) => [name, CREATE_ARGS[name]])) as Pick<
  typeof CREATE_ARGS,
  (typeof DATE_ARGS)[number]
>;

/** The preview's arguments: `POST /events`'s for the dates and the rule, and the page size. */
export const PREVIEW_ARGS = {
  ...dates,
  ...unrequired({ [DATE_ARG.end]: CREATE_ARGS[DATE_ARG.end] }),
  recurrence: CREATE_ARGS.recurrence,
  per_page: pageArgs("events.preview", { perPage: 10, max: 100 }).per_page,
} satisfies ArgSpecs;

/** One occurrence of the preview: its dates as an event's, and its original start. */
const PreviewOccurrence = v.strictObject({
  [DATE_ARG.start]: str("recurrence_preview.start"),
  [DATE_ARG.end]: str("recurrence_preview.end"),
  utc_start_date: str("recurrence_preview.utc_start_date"),
  utc_end_date: str("recurrence_preview.utc_end_date"),
  original_start: str("recurrence_preview.original_start"),
});

/** The preview's answer (`/doc` component `RecurrencePreview`). */
export const RecurrencePreview = v.strictObject({
  occurrences: d(v.array(PreviewOccurrence), "recurrence_preview.occurrences"),
  total: d(v.nullable(int("recurrence_preview.total")), "recurrence_preview.total"),
});

/** Whether the rule goes on for ever (an `RRULE` without `COUNT` or `UNTIL`). */
const endless = (rec: Recurrence) =>
  rec.rule !== null && rec.until === null && !rec.rule.some(([part]) => part === "COUNT");

/**
 * Handles `GET /recurrence`.
 * @returns 200 `{occurrences: [{start_date, end_date, utc_start_date, utc_end_date,
 *   original_start}], total}`: the first `per_page` occurrences from the start (local and UTC
 *   `Y-m-d H:i:s`, the original start as RFC 3339 — a date for an all-day series), and how many
 *   the lines give up to their end (null without an end, or past `PREVIEW_COUNT_MAX`).
 * @throws InvalidParamsError as `POST /events` for the same values (validators, then the lines'
 *   400 naming `recurrence`); ApiError 401/403 `rest_forbidden` for who may not create events.
 */
export async function previewRecurrence(c: AppContext): Promise<Response> {
  c.set("noStore", true);
  const ctx = argContext(c);
  const { values: a, sent } = parseArgs(PREVIEW_ARGS, await requestParams(c), ctx);
  const user = c.get("user");
  if (!can(user, "edit_posts")) throw forbidden(user !== null);
  const input = dateInputs(a, sent as Set<string>, true)!;
  const next = eventDates(input, null, c.get("settings").siteTimezone, requestNow(c)) as EventRow;
  const { wall, first } = seriesStart(next, null, a[DATE_ARG.start], true);
  if (first) Object.assign(next, first);
  const frame = { ...frameOf(next), start: wall };
  const lines = a.recurrence ?? [];
  let starts: string[];
  let total: number | null;
  try {
    const rec = parseLines(lines, frame, MAX_DATES);
    const shape = { ...next, occurrenceStart: wall, id: 0, rec };
    const stored = seriesStarts(shape, storedBounds(requestNow(c), next, null, 0));
    ({ starts, total } = beyond(rec, frame, stored, a.per_page));
  } catch (err) {
    recurrenceInvalid(err);
  }
  const shown = starts.slice(0, a.per_page);
  const occurrences = occurrencesDates(next, shown).map((o, i) => ({
    [DATE_ARG.start]: o.startDate,
    [DATE_ARG.end]: o.endDate,
    utc_start_date: o.startDateUtc,
    utc_end_date: o.endDateUtc,
    original_start: rfc3339(shown[i], next.timezone, next.allDay),
  }));
  return c.json({ occurrences, total });
}

/**
 * The starts to show and the total, from what a write stores (`stored`: up to its horizon) and,
 * when that is not all, the rule past it: the rule's own checks hold up to the horizon (a write
 * refuses past it nothing), so past it the starts are read as a list reads them (not strict).
 */
function beyond(
  rec: Recurrence,
  frame: ReturnType<typeof frameOf>,
  stored: { starts: string[]; complete: boolean },
  perPage: number,
): { starts: string[]; total: number | null } {
  if (stored.complete) return { starts: stored.starts, total: stored.starts.length };
  const more = (limit: number) => {
    try {
      return expand(rec, frame, NO_BOUND, { limit, strict: false });
    } catch {
      return null;
    }
  };
  const listed = stored.starts.length >= perPage ? stored : (more(perPage) ?? stored);
  if (endless(rec)) return { starts: listed.starts, total: null };
  const all = more(PREVIEW_COUNT_MAX);
  return { starts: listed.starts, total: all?.complete ? all.starts.length : null };
}
