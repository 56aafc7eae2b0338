/**
 * The argument defaults that read the clock (the default `end_date` is "now + 24 months" to the
 * second, tec-reference §2.1) differ between two requests that straddle a second: compare answers
 * with those replaced.
 */
const CLOCK_DEFAULT = /"default":"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}"/g;

/** `value` (any JSON) with every `Y-m-d H:i:s` default replaced by `<now>`. */
export function withoutClock<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replace(CLOCK_DEFAULT, '"default":"<now>"')) as T;
}
