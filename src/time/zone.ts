/**
 * Time zones as TEC accepts them (tec-reference §3 `is_timezone`, §12.1): IANA identifiers
 * (`Europe/Rome`, `UTC`) or fixed offsets written `UTC+2`, `UTC-5:30`, `UTC+05:30`.
 */
import { type DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";

const OFFSET = /^UTC([+-])(\d{1,2})(?::?(\d{2}))?$/i;

/**
 * The luxon zone for a TEC time zone string, or null when it is neither an IANA name nor `UTC±H[:MM]`.
 * @example resolveZone("UTC+5:30")?.offset(0) // 330 (minutes)
 */
export function resolveZone(name: string): Zone | null {
  // Checking an IANA name builds an Intl.DateTimeFormat: worth remembering (every event
  // of a page asks for its zone several times).
  let zone = resolved.get(name);
  if (zone === undefined) {
    zone = resolveUncached(name);
    if (resolved.size >= 1000) resolved.clear();
    resolved.set(name, zone);
  }
  return zone;
}

/** Zones resolved in this isolate, by the name as given. */
const resolved = new Map<string, Zone | null>();

function resolveUncached(name: string): Zone | null {
  const trimmed = name.trim();
  if (trimmed === "") return null;
  if (/^(utc|gmt|z)$/i.test(trimmed)) return FixedOffsetZone.utcInstance;
  const m = OFFSET.exec(trimmed);
  if (m) {
    const hours = Number(m[2]);
    const minutes = Number(m[3] ?? 0);
    if (hours > 14 || minutes > 59) return null;
    return FixedOffsetZone.instance((m[1] === "-" ? -1 : 1) * (hours * 60 + minutes));
  }
  // IANAZone.isValidZone accepts only names Intl knows; Intl also accepts offsets such as "+02:00",
  // which TEC does not, so insist on the Area/Location (or single-word) shape.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/.test(trimmed)) return null;
  return IANAZone.isValidZone(trimmed) ? IANAZone.create(trimmed) : null;
}

/**
 * The canonical spelling to store: IANA names as Intl spells them (`america/new_york` →
 * `America/New_York`), offsets as `UTC+2` / `UTC-5:30`, `UTC` for zero.
 */
export function canonicalZoneName(name: string): string {
  const zone = resolveZone(name);
  if (!zone) return name;
  if (zone instanceof FixedOffsetZone) {
    const total = zone.offset(0);
    if (/^(utc|gmt|z)$/i.test(name.trim())) return "UTC";
    if (total === 0) return "UTC+0";
    const sign = total < 0 ? "-" : "+";
    const abs = Math.abs(total);
    const h = Math.floor(abs / 60);
    const m = abs % 60;
    return `UTC${sign}${h}${m ? `:${String(m).padStart(2, "0")}` : ""}`;
  }
  return zone.name;
}

const LETTERS = /^[A-Z]{2,5}$/;

/** tz-database abbreviations of zones without daylight saving that no English ICU locale names. */
const FIXED_ABBREVIATIONS: Record<string, string> = {
  "Asia/Seoul": "KST",
  "Asia/Shanghai": "CST",
  "Asia/Taipei": "CST",
  "Europe/Moscow": "MSK",
  "Asia/Karachi": "PKT",
  "Asia/Jakarta": "WIB",
};

/**
 * The zone abbreviation for an instant, as PHP prints it (`EST`/`EDT`, `CET`/`CEST`, `UTC`), or a
 * numeric one (`+03`, `+0530`) where the zone has no letters, like the tz database. Offset zones
 * (`UTC+2`) are their own abbreviation, as in TEC.
 */
export function zoneAbbreviation(zoneName: string, instant: DateTime): string {
  const zone = resolveZone(zoneName);
  if (!zone) return "";
  if (zone instanceof FixedOffsetZone) return canonicalZoneName(zoneName);
  if (zone.name === "UTC" || zone.name === "Etc/UTC") return "UTC";
  if (FIXED_ABBREVIATIONS[zone.name]) return FIXED_ABBREVIATIONS[zone.name];
  const at = instant.setZone(zone);
  // Intl has no tz-database abbreviations; each English locale knows the letters of its own region.
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
