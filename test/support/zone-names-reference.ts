/**
 * The per-occurrence computation the service used before zone names were computed once per
 * transition (src/time/zone.ts `zoneAbbreviations`), kept verbatim as the reference the new one must
 * equal byte for byte: each occurrence's dates, and its abbreviation asked of luxon
 * (`offsetNameShort`: a new `Intl.DateTimeFormat` per locale tried).
 */
import { DateTime, FixedOffsetZone, type Zone } from "luxon";
import type { OccurrenceDates, SeriesTimes } from "../../src/events/series/expand";
import { WP_FORMAT } from "../../src/time/format";
import { canonicalZoneName, resolveZone } from "../../src/time/zone";

const LETTERS = /^[A-Z]{2,5}$/;
const FIXED_ABBREVIATIONS: Record<string, string> = {
  "Asia/Seoul": "KST",
  "Asia/Shanghai": "CST",
  "Asia/Taipei": "CST",
  "Europe/Moscow": "MSK",
  "Asia/Karachi": "PKT",
  "Asia/Jakarta": "WIB",
};

/** The zone abbreviation of an instant, as src/time/zone.ts computed it through luxon. */
export function referenceAbbreviation(zoneName: string, instant: DateTime): string {
  const zone = resolveZone(zoneName);
  if (!zone) return "";
  if (zone instanceof FixedOffsetZone) return canonicalZoneName(zoneName);
  if (zone.name === "UTC" || zone.name === "Etc/UTC") return "UTC";
  if (FIXED_ABBREVIATIONS[zone.name]) return FIXED_ABBREVIATIONS[zone.name];
  const at = instant.setZone(zone);
  for (const locale of [
    "en-US",
    "en-GB",
    "en-AU",
    "en-IN",
    "en-NZ",
    "en-ZA",
    "en-CA",
    "en-HK",
    "ja-JP",
  ]) {
    const short = at.setLocale(locale).offsetNameShort;
    if (short && LETTERS.test(short) && short !== "GMT") return short;
    if (short === "GMT" && at.offset === 0) return "GMT";
  }
  const offset = at.offset;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const h = String(Math.floor(abs / 60)).padStart(2, "0");
  const m = abs % 60;
  return `${sign}${h}${m ? String(m).padStart(2, "0") : ""}`;
}

/** The instant of a local wall clock (RFC 5545 §3.3.5), as src/events/series/lines.ts `utcOf` read it. */
function instantOf(local: string, zone: Zone): DateTime {
  const t = DateTime.fromFormat(local, WP_FORMAT, { zone: "utc" });
  const day = 86_400_000;
  const ms = t.toMillis();
  const readings = [zone.offset(ms - day), zone.offset(ms), zone.offset(ms + day)]
    .map((o) => ms - o * 60_000)
    .filter((i) => zone.offset(i) * 60_000 === ms - i)
    .sort((a, b) => a - b);
  const instant = readings[0] ?? ms - zone.offset(ms - day) * 60_000;
  const utc = DateTime.fromMillis(instant, { zone: "utc" }).toFormat(WP_FORMAT);
  return DateTime.fromFormat(utc, WP_FORMAT, { zone: "utc" }).setZone(zone);
}

/** One occurrence's dates, as src/events/series/expand.ts `occurrenceDates` computed them. */
export function referenceOccurrenceDates(series: SeriesTimes, start: string): OccurrenceDates {
  const zone = resolveZone(series.timezone) ?? resolveZone("UTC")!;
  const utc = (dt: DateTime) => dt.toUTC().toFormat(WP_FORMAT);
  if (series.allDay) {
    const day = (s: string) => DateTime.fromFormat(s.slice(0, 10), "yyyy-MM-dd", { zone: "utc" });
    const days = Math.round(day(series.endDate).diff(day(series.startDate), "days").days);
    const first = DateTime.fromFormat(start.slice(0, 10), "yyyy-MM-dd", { zone });
    const last = first.plus({ days }).set({ hour: 23, minute: 59, second: 59 });
    return {
      startDate: first.toFormat(WP_FORMAT),
      endDate: last.toFormat(WP_FORMAT),
      startDateUtc: utc(first),
      endDateUtc: utc(last),
      timezoneAbbr: referenceAbbreviation(series.timezone, first),
    };
  }
  const read = (s: string) => DateTime.fromFormat(s, WP_FORMAT, { zone: "utc" }).toMillis();
  const duration = read(series.endDateUtc) - read(series.startDateUtc);
  const begin = instantOf(start, zone);
  const end = begin.plus({ milliseconds: duration }).setZone(zone);
  return {
    startDate: begin.toFormat(WP_FORMAT),
    endDate: end.toFormat(WP_FORMAT),
    startDateUtc: utc(begin),
    endDateUtc: utc(end),
    timezoneAbbr: referenceAbbreviation(series.timezone, begin),
  };
}
