/**
 * Password protection is applied to records before any renderer sees them (tec-reference
 * §4.7, contract §4 row 18): what a password-protected event, venue or organizer hides is its
 * contract's blanked fields (`blank` in src/events/contract.ts, src/linked-posts/venue.ts,
 * src/linked-posts/organizer.ts), and none of their values reaches the record the renderers get,
 * nor any answer — the JSON lists and singles (embedded venues and organizers too), JSON-LD, the
 * iCalendar feed — of a viewer who may not open the post.
 *
 * The fields checked come from the contracts: every blanked column is filled with a marker
 * (`zq…zq`) or a number found nowhere else, by its type; the few blanked values not stored in one
 * column (`hides`: images, terms, cost) are filled here, and the test fails when the contract has
 * one it does not fill. The secrets are what the open answers (the password given) show under the
 * blanked field names.
 */
import { env } from "cloudflare:workers";
import { getTableColumns, type Table } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/db/client";
import { events, organizers, venues } from "../../src/db/schema";
import { EVENT_FIELDS } from "../../src/events/contract";
import { loadEvent } from "../../src/events/single";
import { visibleEvent } from "../../src/events/visible";
import { LEFT_OUT, NOTHING_HIDDEN, type WireFields } from "../../src/http/contract";
import { sha256Hex } from "../../src/http/crypto";
import type { RenderContext } from "../../src/http/render";
import { buildUrls } from "../../src/http/urls";
import { ORGANIZER_FIELDS } from "../../src/linked-posts/organizer";
import { VENUE_FIELDS } from "../../src/linked-posts/venue";
import { parseSettings } from "../../src/settings";
import { api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import {
  seedEvent,
  seedMedia,
  seedOrganizer,
  seedTerm,
  seedUser,
  seedVenue,
} from "../support/factories";

const PASSWORD = "open sesame";

/** Blanked fields whose values are hidden (a column or `hides`), by wire name. */
const hiddenFields = (fields: WireFields) =>
  Object.entries(fields).filter(([, f]) => f.blank !== undefined && f.hides !== NOTHING_HIDDEN);

let numbers = 0;
/**
 * Every blanked column of a contract filled by its type: text with a marker, numbers with a
 * decimal found nowhere else, flags true.
 */
function blankedColumns(table: Table, fields: WireFields, post: string): Record<string, unknown> {
  const columns = getTableColumns(table);
  const out: Record<string, unknown> = {};
  for (const [name, f] of hiddenFields(fields)) {
    if (!f.column) continue;
    const type = columns[f.column].dataType;
    out[f.column] =
      type === "string"
        ? `<b>zq${post}${name.replace(/_/g, "")}zq</b>`
        : type === "number"
          ? 10 + ++numbers + 0.123457
          : true;
  }
  return out;
}

/** The blanked values not stored in one column, filled by hand: the fields with `hides`. */
const FILLED_BY_HAND = {
  event: ["image", "cost", "cost_details", "categories", "tags"],
  venue: ["image"],
  organizer: ["image"],
};

const image = (post: string) => seedMedia(`https://img.example/zq${post}imagezq.jpg`);

/** The markers and numbers a value holds, at any depth. */
function leaves(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === "string") for (const m of value.match(/zq[a-z0-9]+zq/g) ?? []) out.add(m);
  else if (typeof value === "number" && !Number.isInteger(value)) out.add(String(value));
  else if (value && typeof value === "object") for (const v of Object.values(value)) leaves(v, out);
  return out;
}

/** What an open answer shows under the contract's blanked fields (derived `json_ld` aside). */
function secretsOf(fields: WireFields, open: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  for (const [name, f] of Object.entries(fields))
    if (f.blank !== undefined && f.blank !== LEFT_OUT) leaves(open[name], out);
  return out;
}

/** Every hidden field of the contract shows a value in the open answer (the test is not vacuous). */
function expectFilled(fields: WireFields, open: Record<string, unknown>) {
  for (const [name, f] of hiddenFields(fields))
    expect(JSON.stringify(open[name]), name).not.toBe(JSON.stringify(f.blank));
}

/** An iCalendar text unfolded and unescaped, so that a value split over lines is still found. */
const plainIcs = (text: string) => text.replace(/\r\n[ \t]/g, "").replace(/\\([\\;,])/g, "$1");

function expectNone(text: string, secrets: Set<string>, where: string) {
  for (const secret of secrets) expect(text, `${secret} in ${where}`).not.toContain(secret);
}

async function world() {
  const digest = await sha256Hex(PASSWORD);
  const venue = await seedVenue({
    title: "Guarded Hall",
    password: PASSWORD,
    state: "Visible State",
    imageId: await image("v"),
    ...blankedColumns(venues, VENUE_FIELDS, "v"),
  });
  const organizer = await seedOrganizer({
    title: "Guarded Org",
    passwordDigest: digest,
    imageId: await image("o"),
    ...blankedColumns(organizers, ORGANIZER_FIELDS, "o"),
  });
  const category = await seedTerm("tribe_events_cat", "zqecategorieszq");
  const tag = await seedTerm("post_tag", "zqetagszq");
  const guarded = await seedEvent({
    title: "Guarded Event",
    start: day(2, "19:00:00"),
    password: PASSWORD,
    venueId: venue,
    organizerIds: [organizer],
    termIds: [category, tag],
    cost: ["47"],
  });
  // Blanked columns by their SQL names; the cost's currency is what `cost` and `cost_details` show.
  const set = Object.entries(blankedColumns(events, EVENT_FIELDS, "e"));
  const sqlName = (column: string) => getTableColumns(events as Table)[column].name;
  await env.DB.prepare(
    `UPDATE events SET image_id = ?, currency_symbol = 'zqecostzq', currency_code = 'zqecostdetailszq', ${set.map(([c]) => `${sqlName(c)} = ?`).join(", ")} WHERE id = ?`,
  )
    .bind(await image("e"), ...set.map(([, x]) => (x === true ? 1 : x)), guarded)
    .run();
  // An open event showing the protected venue and organizer, and a protected event showing open
  // ones (blanked in it all the same, names kept).
  const carrier = await seedEvent({
    title: "Carrier",
    start: day(3),
    venueId: venue,
    organizerIds: [organizer],
  });
  const openVenue = await seedVenue({
    title: "Open Hall",
    imageId: await image("w"),
    ...blankedColumns(venues, VENUE_FIELDS, "w"),
  });
  const openOrganizer = await seedOrganizer({
    title: "Open Org",
    ...blankedColumns(organizers, ORGANIZER_FIELDS, "p"),
  });
  const wrapped = await seedEvent({
    title: "Wrapped",
    start: day(4),
    password: PASSWORD,
    venueId: openVenue,
    organizerIds: [openOrganizer],
  });
  return { venue, organizer, guarded, carrier, openVenue, openOrganizer, wrapped };
}

describe("password protection before any renderer (§4.7, contract §4 row 18)", () => {
  it("fills every blanked value the contracts declare", () => {
    for (const [kind, fields] of [
      ["event", EVENT_FIELDS],
      ["venue", VENUE_FIELDS],
      ["organizer", ORGANIZER_FIELDS],
    ] as const)
      expect(
        hiddenFields(fields)
          .filter(([, f]) => !f.column)
          .map(([name]) => name),
        kind,
      ).toEqual(FILLED_BY_HAND[kind]);
  });

  it("shows no protected value in any answer — JSON, JSON-LD, iCalendar — to who may not open the post", async () => {
    const w = await world();
    const q = `?password=${encodeURIComponent(PASSWORD)}`;
    const open = async (path: string) => (await api(`${NS}${path}${q}`)).body;
    const event = await open(`/events/${w.guarded}`);
    const venue = await open(`/venues/${w.venue}`);
    const organizer = await open(`/organizers/${w.organizer}`);
    expectFilled(EVENT_FIELDS, event);
    expectFilled(VENUE_FIELDS, venue);
    expectFilled(ORGANIZER_FIELDS, organizer);
    expect(event.json_ld.description).toContain("zqeexcerptzq");
    const secrets = new Set([
      ...secretsOf(EVENT_FIELDS, event),
      ...secretsOf(VENUE_FIELDS, venue),
      ...secretsOf(ORGANIZER_FIELDS, organizer),
    ]);
    expect(secrets.size).toBeGreaterThan(25);

    const subscriber = await seedUser("subscriber");
    for (const [who, headers] of [
      ["anonymous", {}],
      ["subscriber", subscriber.headers],
    ] as const)
      for (const query of ["", "?password=wrong"]) {
        const get = async (path: string) => {
          const res = await api(`${NS}${path}${query}`, { headers });
          return path.includes(".ics") ? plainIcs(res.text) : res.text;
        };
        for (const path of [
          "/events",
          "/events",
          "/events.ics",
          `/events/${w.carrier}`,
          "/events/by-slug/carrier",
          `/events/${w.guarded}`,
          "/venues",
          `/venues/${w.venue}`,
          "/venues/by-slug/guarded-hall",
          "/organizers",
          `/organizers/${w.organizer}`,
        ])
          expectNone(await get(path), secrets, `${who} ${path}${query}`);
        // Names stay (contract §4 row 18), and the venue's state (TEC's table leaves it out).
        const carrier = JSON.parse(await get(`/events/${w.carrier}`));
        expect(carrier.venue).toMatchObject({ venue: "Guarded Hall", state: "Visible State" });
        expect(carrier.organizer[0].organizer).toBe("Guarded Org");
        expect(carrier.json_ld.location).toBeUndefined();
      }
  });

  it("blanks the open venue and organizer of a protected event inside its entry and VEVENT", async () => {
    const w = await world();
    const venue = (await api(`${NS}/venues/${w.openVenue}`)).body;
    const organizer = (await api(`${NS}/organizers/${w.openOrganizer}`)).body;
    expectFilled(VENUE_FIELDS, venue);
    expectFilled(ORGANIZER_FIELDS, organizer);
    const secrets = new Set([
      ...secretsOf(VENUE_FIELDS, venue),
      ...secretsOf(ORGANIZER_FIELDS, organizer),
    ]);
    const listed = (await api(`${NS}/events`)).body.events.find(
      (e: { id: number }) => e.id === w.wrapped,
    );
    expect(listed.venue.venue).toBe("Open Hall");
    expectNone(JSON.stringify(listed), secrets, "the list entry");
    const ics = plainIcs((await api(`${NS}/events.ics`)).text);
    const vevent = ics.slice(ics.indexOf("SUMMARY:Wrapped"));
    expectNone(vevent.slice(0, vevent.indexOf("END:VEVENT")), secrets, "the VEVENT");
  });

  it("gives renderers records that hold none of the protected values", async () => {
    const w = await world();
    const q = `?password=${encodeURIComponent(PASSWORD)}`;
    const secrets = new Set([
      ...secretsOf(EVENT_FIELDS, (await api(`${NS}/events/${w.guarded}${q}`)).body),
      ...secretsOf(VENUE_FIELDS, (await api(`${NS}/venues/${w.venue}${q}`)).body),
      ...secretsOf(ORGANIZER_FIELDS, (await api(`${NS}/organizers/${w.organizer}${q}`)).body),
    ]);
    const settings = parseSettings(env);
    const ctx: RenderContext = {
      urls: buildUrls(settings, ORIGIN, ""),
      settings,
      user: null,
      single: true,
    };
    const db = openDb(env.DB, { write: false }).db;
    const guarded = (await loadEvent(db, { id: w.guarded }, null)).record!;
    const carrier = (await loadEvent(db, { id: w.carrier }, null)).record!;
    // What the renderers would have got before: everything.
    expect(leaves(JSON.parse(JSON.stringify(guarded)), new Set()).size).toBeGreaterThan(25);
    expectNone(JSON.stringify(visibleEvent(ctx, guarded, false)), secrets, "the blanked event");
    expectNone(JSON.stringify(visibleEvent(ctx, carrier)), secrets, "an open event's links");
    // The password (or an editor's context=edit) opens the linked posts: their values come back.
    const opened = visibleEvent({ ...ctx, linkedAccess: () => true }, carrier);
    expect(JSON.stringify(opened)).toContain("zqvaddresszq");
  });
});
