/**
 * `npx tsx scripts/check-zone-names.ts [--from 1900] [--to 2100] [--step-hours 72] [zone …]`
 *
 * Checks what src/time/zone.ts `zoneAbbreviations` (zone names once per transition, contract §7.8)
 * rests on: outside `RENAMED_ZONES`, a zone's name at one offset never changes and changes back.
 * A name that changes once while the offset stays is found where it changes (most zones: a
 * numeric name before 1970, where ICU's names begin, letters after: Africa/Tunis `+01`, `CET`).
 * For every zone Intl knows (or those named), it asks `zoneAbbreviation` at every step from
 * `--from` to `--to` (UTC) and lists the zones where a name at one offset comes back after another
 * (Europe/London at +1 h: `BST`, `+01` 1968–1971, `BST`), marking those missing from
 * `RENAMED_ZONES` (exit 1) and those listed that no longer need to be. Names come from this Node's
 * ICU, which may differ from workerd's; test/series/zone-names.test.ts compares in workerd. Every
 * zone at the defaults: ~26 min on a busy 2-core machine (2026-11-29: 444 name changes at an
 * unchanged offset, 36 zones where one comes back, all in `RENAMED_ZONES`).
 */
import { parseArgs } from "node:util";
import { DateTime } from "luxon";
import { RENAMED_ZONES, resolveZone, zoneAbbreviation } from "../src/time/zone";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    from: { type: "string", default: "1900" },
    to: { type: "string", default: "2100" },
    "step-hours": { type: "string", default: "72" },
  },
});
const zones = positionals.length ? positionals : Intl.supportedValuesOf("timeZone");
const from = Date.UTC(Number(values.from), 0, 1, 12);
const to = Date.UTC(Number(values.to), 11, 31, 12);
const step = Number(values["step-hours"]) * 3_600_000;

/** Zones where a name at one offset comes back after another name at that offset. */
const renamed: string[] = [];
let changes = 0;
const t0 = performance.now();
for (const name of zones) {
  const zone = resolveZone(name);
  if (!zone) continue;
  /** Per offset: the name now, and the names met before it. */
  const byOffset = new Map<number, { now: string; left: Set<string> }>();
  for (let ms = from; ms <= to; ms += step) {
    const offset = zone.offset(ms);
    const abbr = zoneAbbreviation(name, DateTime.fromMillis(ms, { zone: "utc" }));
    const seen = byOffset.get(offset);
    if (seen === undefined) byOffset.set(offset, { now: abbr, left: new Set() });
    else if (seen.now !== abbr) {
      changes++;
      if (seen.left.has(abbr)) {
        const day = new Date(ms).toISOString().slice(0, 10);
        const listed = RENAMED_ZONES.has(zone.name);
        console.log(
          `${listed ? "✓" : "✗"} ${name}: ${abbr} again after ${seen.now} at ${offset} min (${day})`,
        );
        renamed.push(name);
        break;
      }
      seen.left.add(seen.now);
      seen.now = abbr;
    }
  }
}
const missing = renamed.filter((z) => !RENAMED_ZONES.has(resolveZone(z)!.name));
const unneeded = positionals.length ? [] : [...RENAMED_ZONES].filter((z) => !renamed.includes(z));
console.log(
  `${zones.length} zones, ${values.from}–${values.to} every ${values["step-hours"]} h (${((performance.now() - t0) / 1000).toFixed(0)} s): ${changes} name changes at an unchanged offset, ${renamed.length} zones where a name comes back, ${missing.length} of them missing from RENAMED_ZONES${missing.length ? ` (${missing.join(", ")})` : ""}; listed but not renamed here: ${unneeded.join(", ") || "none"}`,
);
console.log(`[${renamed.map((z) => JSON.stringify(z)).join(", ")}]`);
process.exit(missing.length ? 1 : 0);
