/**
 * Parts of the event payload as `/doc` components (tec-reference §4.1, §4.6): the date details (the
 * cost details are the event contract's, the embedded terms the term contract's).
 */
import * as v from "valibot";
import { digits } from "./schema-kit";

/** §4.6: the stored `Y-m-d H:i:s` split into zero-padded strings. */
export const DateDetails = v.strictObject({
  year: digits("date_details.year", 4),
  month: digits("date_details.month", 2),
  day: digits("date_details.day", 2),
  hour: digits("date_details.hour", 2),
  minutes: digits("date_details.minutes", 2),
  seconds: digits("date_details.seconds", 2),
});
