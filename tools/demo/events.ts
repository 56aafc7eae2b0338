/**
 * Demo events: dated occurrences of the programs at the demo venues, in the venue's zone (online
 * events in the site's), with UTC copies, zone abbreviations, costs and currency as TEC stores them.
 */
import { DateTime } from "luxon";
import { currencyFromCost } from "../../src/events/cost";
import { zoneAbbreviation } from "../../src/time/zone";
import type { Random } from "../lib/prng";
import type { SqlRow } from "../lib/sql";
import { postStamps, wp } from "./common";
import { type Currency, type DemoVenue, ORGANIZERS, VENUES } from "./places";
import { PROGRAMS, type Program } from "./programs";
import { TAGS, type TagKey } from "./terms";

/** An event before ids are given out: its columns (no id, slug or flags yet) and its links by key. */
export interface DraftEvent {
  columns: SqlRow;
  title: string;
  /** Index into VENUES, or null for online events. */
  venue: number | null;
  /** Indexes into ORGANIZERS, in order. */
  organizers: number[];
  categories: string[];
  tags: TagKey[];
  /** Starts before today (the few that make yesterday and today non-empty). */
  recent: boolean;
  /** Has a numeric, non-zero cost. */
  paid: boolean;
}

function pickProgram(r: Random): Program {
  const total = PROGRAMS.reduce((sum, p) => sum + p.weight, 0);
  let x = r.next() * total;
  for (const p of PROGRAMS) {
    x -= p.weight;
    if (x < 0) return p;
  }
  return PROGRAMS[PROGRAMS.length - 1];
}

const SITE_CURRENCY: Currency = { symbol: "$", position: "prefix", code: "USD" };

/** Cost strings as people type them: `15`, `$10 - $25`, `20€`, `Free`; [] when no price is given. */
function costStrings(r: Random, prices: readonly number[], currency: Currency): string[] {
  if (prices.length === 0) return [];
  const scale = currency.code === "JPY" ? 100 : 1;
  const money = (n: number) =>
    currency.position === "prefix"
      ? `${currency.symbol}${n * scale}`
      : `${n * scale}${currency.symbol}`;
  if (prices.length === 1 && prices[0] === 0) return [r.chance(0.8) ? "Free" : "0"];
  if (prices.length === 1) return [r.chance(0.3) ? String(prices[0] * scale) : money(prices[0])];
  return [`${money(prices[0])} - ${money(prices[1])}`];
}

function description(r: Random, title: string, program: Program, venue: DemoVenue | null): string {
  const where = venue
    ? `At ${venue.title}, ${venue.address}, ${venue.city}.`
    : "Online: the link is sent by e-mail the day before.";
  const parts = [`<p><strong>${title}</strong>: ${program.pitch}</p>`, `<p>${where}</p>`];
  if (r.chance(0.5)) {
    parts.push(
      `<ul>\n<li>Doors open 30 minutes before the start</li>\n<li>${r.pick(["Step-free access", "Cloakroom available", "Refreshments on sale", "Bring your own cup"])}</li>\n</ul>`,
    );
  }
  return parts.join("\n");
}

/**
 * One draft event on the day `dayOffset` days after `today` (site-local midnight).
 * @param siteTimezone zone of online events (IANA or `UTC±H`).
 */
export function draftEvent(
  r: Random,
  today: DateTime,
  dayOffset: number,
  siteTimezone: string,
): DraftEvent {
  const program = pickProgram(r);
  const venueIndex = program.online ? null : r.int(0, VENUES.length - 1);
  const venue = venueIndex === null ? null : VENUES[venueIndex];
  const zone = venue?.timezone ?? siteTimezone;
  const day = today.plus({ days: dayOffset });
  const extraDays = program.extraDays ? r.pick(program.extraDays) : 0;
  let start: DateTime;
  let end: DateTime;
  if (program.allDay) {
    start = DateTime.fromObject({ year: day.year, month: day.month, day: day.day }, { zone });
    end = start.plus({ days: extraDays }).set({ hour: 23, minute: 59, second: 59 });
  } else {
    start = DateTime.fromObject(
      {
        year: day.year,
        month: day.month,
        day: day.day,
        hour: r.pick(program.hours),
        minute: r.pick([0, 0, 0, 30, 15]),
      },
      { zone },
    );
    end = start.plus({ days: extraDays, minutes: r.pick(program.minutes) });
  }
  const title = r.pick(program.titles);
  const costs = costStrings(r, r.pick(program.prices), venue?.currency ?? SITE_CURRENCY);
  const parsed = currencyFromCost(costs);
  const code = parsed.symbol ? (venue?.currency ?? SITE_CURRENCY).code : "";
  const extraTag = r.chance(0.2) ? [r.pick(Object.keys(TAGS) as TagKey[])] : [];
  // Created 5 to 90 days before today, but never after the event itself started.
  const stamps = postStamps(
    r,
    today,
    Math.max(1, 5 - Math.min(dayOffset, 0)),
    90 - Math.min(dayOffset, 0),
  );
  return {
    title,
    venue: venueIndex,
    organizers: r.sample(
      [...ORGANIZERS.keys()],
      r.pick([0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 2]),
    ),
    categories: r.chance(0.05) ? [] : program.categories.slice(0, r.chance(0.5) ? 2 : 1),
    tags: [...new Set([...r.sample(program.tags, r.int(0, 3)), ...extraTag])],
    recent: dayOffset <= 0,
    paid: costs.some((c) => /[1-9]/.test(c)),
    columns: {
      author: 1,
      status: "publish",
      title,
      content: description(r, title, program, venue),
      excerpt: `${program.pitch}${venue ? ` ${venue.city}.` : ""}`,
      password_digest: "",
      ...stamps,
      start_date: wp(start),
      end_date: wp(end),
      start_date_utc: wp(start.toUTC()),
      end_date_utc: wp(end.toUTC()),
      timezone: zone,
      timezone_abbr: zoneAbbreviation(zone, start),
      all_day: program.allDay ?? false,
      cost: JSON.stringify(costs),
      currency_symbol: parsed.symbol,
      currency_position: parsed.position,
      currency_code: code,
      show_map: r.chance(0.92),
      show_map_link: r.chance(0.92),
    },
  };
}
