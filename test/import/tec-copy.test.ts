/**
 * Copying one instance into another with the TEC-site import: a source calendar is made
 * through this worker's API (as `http://source.example`), every archive is recorded as an
 * administrator sees it, storage is wiped, and the recording is served as the source of an import
 * into the now empty instance. Dates, costs, currencies and global ids must survive, and a second
 * run must write nothing.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { importTec } from "../../tools/import/tec/importer";
import { ADMIN, NS, ORIGIN } from "../support/api";
import { record, recordedSite, SOURCE_ROOT, source, target, wipe } from "./recorded-site";

const day = (n: number) =>
  `2027-${String(1 + (n % 12)).padStart(2, "0")}-${String(1 + (n % 27)).padStart(2, "0")}`;

/** The source calendar: every kind of cost and currency, old post dates, lineage, all statuses. */
async function makeSource(): Promise<void> {
  const music = await source("/categories", { name: "Music" });
  await source("/categories", { name: "Jazz", parent: music.id });
  await source("/tags", { name: "Outdoor" });
  const hall = await source("/venues", {
    venue: "Blue Hall",
    address: "100 Main St",
    city: "Springfield",
    country: "United States",
    state: "IL",
    zip: "62701",
    geo_lat: 39.8,
    geo_lng: -89.65,
    date_utc: "2018-05-06 07:08:09",
    global_id_lineage: ["first.example?id=40"],
  });
  const org = await source("/organizers", {
    organizer: "Arts Club",
    email: "club@example.com",
    date_utc: "2018-05-06 07:08:10",
  });
  const costs: Array<Record<string, unknown>> = [
    { cost: "0" },
    { cost: "Free" },
    { cost: "$10 - $25", currency_code: "USD" },
    { cost: "20€", currency_code: "EUR" },
    { cost: "15" },
    { cost: ["0$", "20$", "30$"] },
    { cost: "Donation" },
    { cost: ["Free", "12"] },
    {
      cost: "1.500,50 kr",
      currency_symbol: "kr",
      currency_position: "postfix",
      currency_code: "SEK",
    },
    { cost: "¥1500", currency_code: "JPY" },
    {},
  ];
  const statuses = ["publish", "draft", "future", "pending", "private", "publish"];
  for (let i = 0; i < 64; i++) {
    await source("/events", {
      title: `Event ${i}${i % 9 === 0 ? " & friends’" : ""}`,
      description: i % 2 ? `<p>Line one<br />\nline two of ${i}</p>` : `Plain text ${i}`,
      start_date: `${day(i)} ${i % 5 === 0 ? "00:00:00" : "19:30:00"}`,
      end_date: `${day(i)} 22:00:00`,
      all_day: i % 5 === 0,
      timezone: ["America/New_York", "Europe/Berlin", "UTC", "Asia/Tokyo"][i % 4],
      status: statuses[i % statuses.length],
      date_utc: `2019-0${1 + (i % 9)}-1${i % 10} 0${i % 10}:15:00`,
      featured: i % 7 === 0,
      sticky: i % 11 === 0,
      show_map: i % 3 !== 0,
      ...costs[i % costs.length],
      ...(i % 3 === 0 ? { venue: hall.id, organizer: [org.id] } : {}),
      ...(i % 4 === 0 ? { categories: ["Jazz"], tags: ["Outdoor"] } : {}),
      ...(i % 8 === 0 ? { global_id_lineage: [`first.example?id=${1000 + i}`] } : {}),
    });
  }
}

describe("TEC-site import of a whole instance into an empty one", () => {
  it("keeps dates, costs, currencies and global ids, and re-runs as 0 created, 0 updated", async () => {
    await makeSource();
    const recorded = await record();
    expect(recorded.events).toHaveLength(64);
    await wipe();

    const site = {
      base: SOURCE_ROOT,
      authorization: "Basic c291cmNlOnB3",
      fetch: recordedSite(recorded),
    };
    const first = await importTec(site, target, { retryDelayMs: 1 });
    expect(first.counts.events).toEqual({ created: 64, updated: 0, unchanged: 0, skipped: 0 });
    expect(first.counts.venues.created).toBe(1);

    const copied = new Map<string, any>();
    for (const page of [1, 2]) {
      const res = await SELF.fetch(
        `${ORIGIN}${NS}/events?status=publish,future,draft,pending,private&start_date=1970-01-01&end_date=2999-12-31&per_page=50&page=${page}`,
        { headers: ADMIN },
      );
      for (const e of (await res.json<any>()).events) copied.set(e.global_id_lineage[1], e);
    }
    expect(copied.size).toBe(64);
    const kept = [
      "title",
      "description",
      "status",
      "date",
      "date_utc",
      "start_date",
      "end_date",
      "utc_start_date",
      "utc_end_date",
      "all_day",
      "timezone",
      "cost",
      "cost_details",
      "featured",
      "sticky",
      "show_map",
    ];
    for (const e of recorded.events) {
      const c = copied.get(e.global_id);
      expect(c, e.title).toBeDefined();
      for (const key of kept) expect(c[key], `${e.title}: ${key}`).toEqual(e[key]);
      expect(c.global_id_lineage.slice(1)).toEqual(e.global_id_lineage);
      expect(c.categories.map((t: any) => t.slug)).toEqual(e.categories.map((t: any) => t.slug));
      if (e.venue.id) {
        const { id: _a, global_id: _b, global_id_lineage: vl, url: _c, ...venue } = c.venue;
        const { id: _d, global_id: _e, global_id_lineage: sl, url: _f, ...was } = e.venue;
        expect({ ...venue, modified: "", modified_utc: "" }).toEqual({
          ...was,
          modified: "",
          modified_utc: "",
        });
        expect(vl.slice(1)).toEqual(sl);
      }
    }
    const yen = [...copied.values()].find((e) => e.cost_details.currency_code === "JPY");
    expect(yen.cost).toBe("¥1500");

    const again = await importTec(site, target, { retryDelayMs: 1 });
    for (const [kind, counts] of Object.entries(again.counts))
      expect(counts, kind).toMatchObject({ created: 0, updated: 0 });
    expect(again.counts.events.unchanged).toBe(64);
  });
});
