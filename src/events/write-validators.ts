/**
 * Validators of the event write arguments (tec-reference §2.3, §3) that only events use; their
 * arguments are declared in the event's contract (src/events/contract.ts).
 */
import * as v from "valibot";
import { issue } from "../http/args";
import { isEmpty, isNumeric } from "../http/validators";
import { resolveZone } from "../time/zone";
import { MAX_LINE_LENGTH, MAX_LINES } from "./series/lines";

/** TEC `is_timezone_or_empty` (§3): empty, an IANA name, or `UTC±H[:MM]`. */
export const timezoneOrEmpty = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && resolveZone(x) !== null),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** Cost: a string, a number, or a list of them (stored verbatim, §8.2); empty clears. */
export const costInput = v.pipe(
  v.unknown(),
  v.check(
    (x) =>
      isEmpty(x) ||
      typeof x === "string" ||
      isNumeric(x) ||
      (Array.isArray(x) && x.length <= 20 && x.every((i) => typeof i === "string" || isNumeric(i))),
    issue("invalid"),
  ),
  v.transform((x): string[] =>
    isEmpty(x)
      ? []
      : (Array.isArray(x) ? x : [x])
          .map((i) => String(i).trim())
          .filter((i) => i !== "")
          .map((i) => i.slice(0, 200)),
  ),
);

/** Raw value, validated by the linked-post and term resolvers. */
export const raw = v.pipe(
  v.unknown(),
  v.transform((x) => x),
);

export const uid = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string" && x.trim() !== "" && x.length <= 255, issue("invalid")),
  v.transform((x) => String(x).trim()),
);

/** `_EventCurrencySymbol` (§4.8): up to 10 characters, no digits; empty clears (the site's is shown). */
export const currencySymbol = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && x.trim().length <= 10 && !/\d/.test(x)),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim() : "")),
);

/** `_EventCurrencyPosition` (§4.1): `prefix`, `postfix`, or empty (the site's applies). */
export const currencyPosition = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || x === "prefix" || x === "postfix",
    issue("not_in_enum", "prefix, postfix"),
  ),
  v.transform((x): "" | "prefix" | "postfix" => (x === "prefix" || x === "postfix" ? x : "")),
);

/** `_EventCurrencyCode`: an ISO 4217 code (three letters, stored upper case), or empty. */
export const currencyCode = v.pipe(
  v.unknown(),
  v.check(
    (x) => isEmpty(x) || (typeof x === "string" && /^[A-Za-z]{3}$/.test(x.trim())),
    issue("invalid"),
  ),
  v.transform((x) => (typeof x === "string" ? x.trim().toUpperCase() : "")),
);

export const password = v.pipe(
  v.unknown(),
  v.check((x) => typeof x === "string" && x.length <= 255, issue("not_of_type", "string")),
  v.transform((x) => x as string),
);

/**
 * `recurrence` (contract §7.8): a list of RFC 5545 lines (a JSON array, or one string of lines);
 * `[]`, `""` or `null` ends a series' repetition. What the lines say is checked with the event's
 * dates (src/events/series/lines.ts).
 */
export const recurrenceLines = v.pipe(
  v.unknown(),
  v.transform((x) =>
    x === null || x === ""
      ? []
      : typeof x === "string"
        ? x.split(/\r?\n/).filter((l) => l.trim())
        : x,
  ),
  v.check(
    (x) =>
      Array.isArray(x) &&
      x.length <= MAX_LINES &&
      x.every((l) => typeof l === "string" && l.trim() !== "" && l.length <= MAX_LINE_LENGTH),
    issue("invalid"),
  ),
  v.transform((x) => (x as string[]).map((l) => l.trim())),
);
