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
  return abbreviationOf(zoneName, zone, instant.toMillis());
}

/**
 * The abbreviations of many instants of one zone, each what `zoneAbbreviation` gives, computed
 * once per transition rather than once per instant (contract §7.8: a series of 1,000 occurrences
 * asked ICU for ~1,000 names, each a new `Intl.DateTimeFormat` per locale tried). Within a run of
 * consecutive instants with one offset, the name is asked for at both ends; when they agree, every
 * instant between has it, else the run is halved until they do — so a name that changes while the
 * offset stays (Africa/Tunis: `+01`, then `CET` from 1970, where ICU's names begin) is found where
 * it changes.
 * That rests on one fact of the tz data as ICU names it: a zone's name at one offset does not
 * change and change back — true of every zone Intl knows, 1900–2100, but `RENAMED_ZONES`
 * (`scripts/check-zone-names.ts`), whose every instant is named.
 * @param at the instants, ascending (epoch ms), each with its offset in the zone (minutes).
 * @example zoneAbbreviations("Europe/Berlin", days.map((d) => ({ ms: d.toMillis(), offset: d.offset })))
 */
export function zoneAbbreviations(
  zoneName: string,
  at: ReadonlyArray<{ ms: number; offset: number }>,
): string[] {
  const zone = resolveZone(zoneName);
  const out: string[] = new Array(at.length);
  if (!zone) return out.fill("");
  const name = (i: number) => (out[i] ??= abbreviationOf(zoneName, zone, at[i].ms));
  if (RENAMED_ZONES.has(zone.name)) return Array.from(at, (_, i) => name(i));
  const fill = (from: number, to: number) => {
    const [a, b] = [name(from), name(to)];
    if (a === b) for (let i = from + 1; i < to; i++) out[i] = a;
    else if (to - from > 1) {
      const mid = (from + to) >> 1;
      fill(from, mid);
      fill(mid, to);
    }
  };
  for (let from = 0; from < at.length; ) {
    let to = from;
    while (to + 1 < at.length && at[to + 1].offset === at[from].offset) to++;
    fill(from, to);
    from = to + 1;
  }
  return out;
}

/**
 * Zones where a name at one offset comes back after another name at that offset (Europe/London at
 * +1 h: `BST`, `+01` all year 1968–1971, `BST` again; Indiana's zones at −5 h: `EST` and `CDT` in
 * turns): `zoneAbbreviations` asks for each of their instants' names. `scripts/check-zone-names.ts`
 * found these 36 of the 418 zones Node 22's ICU 78 knows (tz 2026c), 1900–2100, every 3 days.
 */
export const RENAMED_ZONES: ReadonlySet<string> = new Set([
  "Africa/Algiers",
  "Africa/Casablanca",
  "Africa/El_Aaiun",
  "Africa/Tripoli",
  "Africa/Windhoek",
  "America/Cambridge_Bay",
  "America/Cancun",
  "America/Chihuahua",
  "America/Ciudad_Juarez",
  "America/Dawson",
  "America/Grand_Turk",
  "America/Indiana/Knox",
  "America/Indiana/Marengo",
  "America/Indiana/Petersburg",
  "America/Indiana/Vincennes",
  "America/Indiana/Winamac",
  "America/Iqaluit",
  "America/Juneau",
  "America/Louisville",
  "America/Managua",
  "America/Metlakatla",
  "America/Ojinaga",
  "America/Rankin_Inlet",
  "America/Resolute",
  "America/Whitehorse",
  "Asia/Damascus",
  "Asia/Famagusta",
  "Atlantic/Azores",
  "Europe/Istanbul",
  "Europe/Kaliningrad",
  "Europe/Lisbon",
  "Europe/London",
  "Europe/Minsk",
  "Europe/Samara",
  "Europe/Simferopol",
  "Europe/Vilnius",
]);

/** The English locales whose ICU data name zones with letters, in the order they are asked. */
const LOCALES = ["en-US", "en-GB", "en-AU", "en-IN", "en-NZ", "en-ZA", "en-CA", "en-HK", "ja-JP"];

function abbreviationOf(zoneName: string, zone: Zone, ms: number): string {
  if (zone instanceof FixedOffsetZone) return canonicalZoneName(zoneName);
  if (zone.name === "UTC" || zone.name === "Etc/UTC") return "UTC";
  if (FIXED_ABBREVIATIONS[zone.name]) return FIXED_ABBREVIATIONS[zone.name];
  const offset = zone.offset(ms);
  // Intl has no tz-database abbreviations; each English locale knows the letters of its own region.
  for (const locale of LOCALES) {
    const short = shortName(locale, zone.name, ms);
    if (short && LETTERS.test(short) && short !== "GMT") return short;
    if (short === "GMT" && offset === 0) return "GMT";
  }
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const h = String(Math.floor(abs / 60)).padStart(2, "0");
  const m = abs % 60;
  return `${sign}${h}${m ? String(m).padStart(2, "0") : ""}`;
}

/** `Intl.DateTimeFormat`s of short zone names, by locale and zone: each costs ~0.1 ms to make. */
const shortNames = new Map<string, Intl.DateTimeFormat>();

/**
 * The short name of `zoneName` at `ms` in `locale`: what luxon's `offsetNameShort` answers (the same
 * `Intl.DateTimeFormat` options), from a format made once per locale and zone, not once per call.
 */
function shortName(locale: string, zoneName: string, ms: number): string | null {
  const key = `${locale} ${zoneName}`;
  let format = shortNames.get(key);
  if (format === undefined) {
    if (shortNames.size >= 1000) shortNames.clear();
    format = new Intl.DateTimeFormat(locale, {
      timeZoneName: "short",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: zoneName,
    });
    shortNames.set(key, format);
  }
  const part = format.formatToParts(new Date(ms)).find((p) => p.type === "timeZoneName");
  return part ? part.value : null;
}
