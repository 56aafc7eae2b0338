/**
 * Events rendered ahead for anonymous readers: the stored texts of `event_renderings` and
 * how a request turns them into its answer.
 *
 * An event is rendered as an anonymous reader without a password sees it — the list object
 * (protected fields blanked, tec-reference §4.7) and the single GET object (`json_ld` included,
 * §4.9) — by the same serializer as every other answer (src/events/serialize.ts), with two things
 * left open because they differ per request or change without the event changing:
 *
 * - the request's URLs (contract §1: origin, language prefix, `SITE_URL`): rendered as tokens;
 * - each embedded term's `count` (§4.4: it follows every event of the term).
 *
 * In the stored text each is a mark: the control character U+0001 and a letter (`S` site, `N`
 * namespace root, `W` wp/v2 root, `A` API root, `G` global id prefix, `H` the site's host) or
 * `C{term id};` for a count.
 * JSON text never holds a raw control character (JSON.stringify escapes them), so a mark can only
 * be one of ours. Filling them in is one pass over the text (`fill`).
 *
 * A recurring series (contract §7.8) has two more texts: its other occurrences as a list shows them
 * (`occurrence`) and as their single GET shows them (`occurrenceSingle`), rendered with tokens for
 * what each occurrence shows of its own — its id (`#` where it is a number, `OI` inside strings),
 * the pieces of its four dates and of its original start (`Oa` … `Ox`, `OA` … `OF`), its zone
 * abbreviation (`OZ`) and its start and end in ISO 8601 for `json_ld` (`OP`, `OQ`) — filled in from
 * the occurrence's row.
 */

import { sha256Hex } from "../../http/crypto";
import type { RenderContext } from "../../http/render";
import type { Urls } from "../../http/urls";
import type { Settings } from "../../settings";
import { isoInUtc } from "../json-ld";
import type { EventRecord } from "../record";
import { serializeEvent } from "../serialize";
import { shiftLocal } from "../series/lines";
import { rfc3339 } from "../series/views";
import { visibleEvent } from "../visible";
import { FIXTURE } from "./fixture";

/**
 * Bump when what an event's JSON looks like changes in a way the fixture of `renderKey` may not
 * show; every stored rendering then counts as stale.
 */
const FORMAT = 3;

/**
 * Tokens for the request's URLs while rendering: a lone surrogate (never in text read from D1,
 * which is UTF-8) and the mark's letter. JSON.stringify writes it as `\udbff`, turned into the mark
 * by `marked`.
 */
const TOKEN_URLS: Urls = {
  apiRoot: "\udbffA",
  namespaceRoot: "\udbffN",
  wpRoot: "\udbffW",
  site: "\udbffS",
  siteHost: "\udbffH",
  globalIdPrefix: "\udbffG",
};

/** A term's count while rendering: `-(COUNT_BASE + id)`, which no real count can be. */
const COUNT_BASE = 1e12;

/** An occurrence's own value while rendering its series' `occurrence` text: a lone surrogate and `O`, its letter. */
const occurrenceToken = (letter: string) => `\udbffO${letter}`;
/** A date of an occurrence while rendering, as six tokens (`Y-m-d H:i:s`, split as `*_details` splits it). */
const dateTokens = (letters: string) =>
  `${[0, 1, 2].map((i) => occurrenceToken(letters[i])).join("-")} ${[3, 4, 5]
    .map((i) => occurrenceToken(letters[i]))
    .join(":")}`;
/** The letters of each occurrence date's pieces (`Y`, `m`, `d`, `H`, `i`, `s`). */
const DATE_LETTERS = {
  startDate: "abcdef",
  endDate: "ghijkl",
  startDateUtc: "mnopqr",
  endDateUtc: "stuvwx",
  occurrenceStart: "ABCDEF",
} as const;

/**
 * JSON text from JSON.stringify → stored text: escapes are skipped pair by pair (`\\.`), so a
 * `\udbff` or `"count":-1…` inside a string can never be taken for a token. An occurrence's id
 * token as a whole JSON string (`"id":"…"`) becomes the number mark `#`; an original start's token
 * (`originalStartToken`) the mark `T{zone};`.
 */
const TOKENS =
  /"\\udbffOI"|\\udbff(O[A-Za-z]|[ANWSGH])|\\udbffT([^\\"]*)\\udbff|\\.|"count":-1(\d{12})/gs;

function marked(json: string): string {
  return json.replace(
    TOKENS,
    (match, url: string | undefined, zone: string | undefined, count: string | undefined) =>
      match === '"\\udbffOI"'
        ? "\u0001#"
        : url
          ? `\u0001${url}`
          : zone !== undefined
            ? `\u0001T${zone};`
            : count
              ? `"count":\u0001C${Number(count)};`
              : match,
  );
}

/**
 * An occurrence's original start while rendering (`series.original_start`): a token that names
 * the series' zone, filled in from the occurrence's `occurrence_start` (src/events/series/views.ts
 * `rfc3339`). Zone names hold no `;`, quote or backslash.
 */
const originalStartToken = (zone: string) => `\udbffT${zone}\udbff`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: U+0001 is the mark (module comment).
const MARKS = /\u0001(?:([ANWSGH])|C(\d+);|O([A-Za-z])|T([^;]*);|(#))/g;

/** What an occurrence shows of its own (src/events/series/occurrences.ts `OccurrenceRow`). */
export interface OccurrenceValues {
  id: number;
  startDate: string;
  endDate: string;
  startDateUtc: string;
  endDateUtc: string;
  occurrenceStart: string;
  timezoneAbbr: string;
}

/**
 * A stored time in ISO 8601 as the JSON-LD of the event's zone writes it (src/events/json-ld.ts
 * `isoIn`): the local time with its offset from UTC, or, for a zone `isoInUtc`, the UTC time and `Z`.
 * @param utcStyle the zone's `isoInUtc`.
 * @example isoOf("2027-03-02 19:00:00", "2027-03-02 18:00:00", false) // "2027-03-02T19:00:00+01:00"
 */
function isoOf(local: string, utc: string, utcStyle: boolean): string {
  if (utcStyle) return `${utc.replace(" ", "T")}Z`;
  const minutes = Math.round(
    (Date.parse(`${local.replace(" ", "T")}Z`) - Date.parse(`${utc.replace(" ", "T")}Z`)) / 60000,
  );
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(Math.trunc(n)).padStart(2, "0");
  return `${local.replace(" ", "T")}${minutes < 0 ? "-" : "+"}${pad(abs / 60)}:${pad(abs % 60)}`;
}

/** The values of an occurrence's marks, by letter (`P`, `Q`: its ISO start and end, `R`, `S`: the same in a zone `isoInUtc`). */
function occurrenceMarks(o: OccurrenceValues): Record<string, string> {
  const out: Record<string, string> = {
    I: String(o.id),
    Z: escaped(o.timezoneAbbr),
    P: isoOf(o.startDate, o.startDateUtc, false),
    Q: isoOf(o.endDate, o.endDateUtc, false),
    R: isoOf(o.startDate, o.startDateUtc, true),
    S: isoOf(o.endDate, o.endDateUtc, true),
  };
  for (const [field, letters] of Object.entries(DATE_LETTERS)) {
    const [date = "", time = ""] = o[field as keyof typeof DATE_LETTERS].split(" ");
    const pieces = [...date.split("-"), ...time.split(":")];
    [...letters].forEach((letter, i) => {
      out[letter] = escaped(pieces[i] ?? "");
    });
  }
  return out;
}

/**
 * Fills stored texts in for one request: its URLs, and the terms' current counts; a series'
 * `occurrence` text also an occurrence's own values.
 * @returns (text, counts: published events using each term, by term id; missing counts 0,
 *   occurrence: for an `occurrence` text) → JSON text.
 * @example filler(urls)(stored, { "4": 12 })
 */
export function filler(
  urls: Urls,
): (text: string, counts: Record<string, number>, occurrence?: OccurrenceValues) => string {
  const url: Record<string, string> = {
    A: escaped(urls.apiRoot),
    N: escaped(urls.namespaceRoot),
    W: escaped(urls.wpRoot),
    S: escaped(urls.site),
    G: escaped(urls.globalIdPrefix),
    H: escaped(urls.siteHost),
  };
  return (text, counts, occurrence) => {
    const own = occurrence ? occurrenceMarks(occurrence) : {};
    return text.replace(
      MARKS,
      (
        _,
        key: string | undefined,
        id: string | undefined,
        letter: string | undefined,
        zone: string | undefined,
      ) =>
        key
          ? url[key]
          : id !== undefined
            ? String(counts[id] ?? 0)
            : letter !== undefined
              ? (own[letter] ?? "")
              : zone !== undefined
                ? escaped(occurrence ? rfc3339(occurrence.occurrenceStart, zone, false) : "")
                : (own.I ?? ""),
    );
  };
}

/** A string as it appears between the quotes of a JSON string. */
const escaped = (s: string) => JSON.stringify(s).slice(1, -1);

/** The texts stored for an event. */
export interface Rendering {
  /** As a list shows it. */
  list: string;
  /** As a single GET shows it (`json_ld` included); empty for a password-protected event, which anonymous single GETs may not see (§4.7). */
  single: string;
  /** A series' other occurrences as a list shows them (marks for their own values); null for other events. */
  occurrence: string | null;
  /** The same as their single GET shows them (`json_ld` included); empty when protected, as `single`; null for other events. */
  occurrenceSingle: string | null;
}

/** The series' row as its occurrences' text is rendered: their own values as tokens. */
function occurrenceTemplate(row: EventRecord["row"]): EventRecord["row"] {
  return {
    ...row,
    id: occurrenceToken("I") as unknown as number,
    startDate: dateTokens(DATE_LETTERS.startDate),
    endDate: dateTokens(DATE_LETTERS.endDate),
    startDateUtc: dateTokens(DATE_LETTERS.startDateUtc),
    endDateUtc: dateTokens(DATE_LETTERS.endDateUtc),
    occurrenceStart: dateTokens(DATE_LETTERS.occurrenceStart),
    timezoneAbbr: occurrenceToken("Z"),
  };
}

/**
 * Renders an event for the store, as an anonymous reader without a password sees it. The record
 * must be assembled for an anonymous viewer (src/events/load.ts `assemble(…, null)`).
 */
export function render(settings: Settings, record: EventRecord): Rendering {
  const open = {
    ...record,
    terms: record.terms.map((t) => ({ ...t, count: -(COUNT_BASE + t.id) })),
  };
  const ctx = (single: boolean): RenderContext => ({
    urls: TOKEN_URLS,
    settings,
    user: null,
    single,
  });
  const isOpen = record.row.passwordDigest === "";
  const shown = visibleEvent(ctx(false), open, isOpen);
  const list = marked(JSON.stringify(serializeEvent(ctx(false), shown)));
  const { row } = record;
  const isSeries = row.seriesId !== null && row.seriesId === row.id;
  const template = () =>
    visibleEvent(ctx(false), { ...open, row: occurrenceTemplate(row) }, isOpen);
  const occurrence = isSeries
    ? marked(JSON.stringify(originalStartMark(serializeEvent(ctx(false), template()), row)))
    : null;
  if (!isOpen) return { list, single: "", occurrence, occurrenceSingle: isSeries ? "" : null };
  return {
    list,
    single: marked(JSON.stringify(serializeEvent(ctx(true), shown))),
    occurrence,
    occurrenceSingle: isSeries
      ? occurrenceSingle(originalStartMark(serializeEvent(ctx(true), template()), row), row)
      : null,
  };
}

/**
 * An occurrence's `series.original_start` in its series' template (the serializer cannot read it
 * from the template's tokens): the instant of its original start in the series' zone
 * (`originalStartToken`), or its original date for an all-day series.
 */
function originalStartMark<T extends ReturnType<typeof serializeEvent>>(
  object: T,
  row: EventRecord["row"],
): T {
  const series = (object as { series?: Record<string, unknown> }).series;
  if (series)
    series.original_start = row.allDay
      ? [0, 1, 2].map((i) => occurrenceToken(DATE_LETTERS.occurrenceStart[i])).join("-")
      : originalStartToken(row.timezone);
  return object;
}

/**
 * An occurrence's single GET object rendered from the series' template: `json_ld`'s dates made from
 * tokens too (the serializer's cannot read the template's dates: all-day ones are cut to the date,
 * the others written with the offset of the occurrence's instant).
 */
function occurrenceSingle(object: ReturnType<typeof serializeEvent>, row: EventRecord["row"]) {
  const ld = (object as { json_ld?: Record<string, unknown> }).json_ld;
  if (ld) {
    const day = (letters: string) => [0, 1, 2].map((i) => occurrenceToken(letters[i])).join("-");
    const utc = isoInUtc(row.timezone);
    ld.startDate = row.allDay ? day(DATE_LETTERS.startDate) : occurrenceToken(utc ? "R" : "P");
    ld.endDate = row.allDay ? day(DATE_LETTERS.endDate) : occurrenceToken(utc ? "S" : "Q");
  }
  return marked(JSON.stringify(object));
}

const keys = new WeakMap<Settings, Promise<string>>();

/**
 * What a stored rendering was made for: the format, the settings an event's JSON depends on (the
 * site's currency and zone) and a digest of the fixture's rendering, so that a deploy that changes
 * what events look like makes every stored rendering stale without anyone remembering to say so.
 */
export function renderKey(settings: Settings): Promise<string> {
  let key = keys.get(settings);
  if (!key) {
    const { list, single } = render(settings, FIXTURE());
    // The fixture as a weekly series with a moved occurrence: its own and its occurrences' text too.
    const series = FIXTURE();
    const week = shiftLocal(series.row.startDate, 7 * 86400);
    series.row = {
      ...series.row,
      seriesId: series.row.id,
      recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=SU"],
      occurrenceStart: series.row.startDate,
      overrideStarts: [[week, shiftLocal(week, 3600), series.row.startDateUtc, false]],
    };
    const { single: seriesSingle, occurrence, occurrenceSingle } = render(settings, series);
    const parts = [
      FORMAT,
      settings.currencySymbol,
      settings.currencyPosition,
      settings.currencyCode,
      settings.siteTimezone,
    ].join("|");
    key = sha256Hex(
      `${parts}\n${list}\n${single}\n${seriesSingle}\n${occurrence}\n${occurrenceSingle}`,
    ).then((hex) => `${FORMAT}.${hex.slice(0, 16)}`);
    keys.set(settings, key);
  }
  return key;
}
