/** Dates relative to the real clock, as the worker sees it (UTC site by default). */
import { DateTime } from "luxon";

/** `Y-m-d H:i:s` of today (UTC) shifted by `days`, at `time`. */
export function day(days: number, time = "10:00:00"): string {
  return `${DateTime.utc().plus({ days }).toFormat("yyyy-MM-dd")} ${time}`;
}
