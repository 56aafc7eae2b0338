/**
 * Every filter of `GET /events` (tec-reference §6.2, §6.3; contract §4, contract §7.3, contract §7.8) at once, on a
 * calendar with an endless series (whose occurrences past the stored horizon are computed): one
 * answer, the events that pass them all. D1 binds at most 100 values in a statement and a list's
 * statements repeat the filters (events, stored occurrences, computed ones), so the filters must
 * stay within that together.
 */
import { describe, expect, it } from "vitest";
import { createEvent } from "../series/support";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedOrganizer, seedTerm, seedVenue } from "../support/factories";

describe("GET /events with every filter at once", () => {
  it("answers with the events that pass them all, anonymous and for an editor, in the JSON and the feed", async () => {
    const music = await seedTerm("tribe_events_cat", "Music");
    const jazz = await seedTerm("post_tag", "Jazz");
    const hall = await seedVenue({ title: "Hall", geoLat: 52.52, geoLng: 13.405 });
    const host = await seedOrganizer({ title: "Host" });
    const series = await createEvent({
      title: "Weekly jazz night",
      start_date: `${day(1).slice(0, 10)} 19:00:00`,
      end_date: `${day(1).slice(0, 10)} 21:00:00`,
      recurrence: ["RRULE:FREQ=WEEKLY"],
      categories: [music],
      tags: [jazz],
      venue: hall,
      organizer: [host],
      featured: true,
    });
    const all = [
      `categories=${music},music,Music`,
      `tags=${jazz},jazz`,
      `venue=${hall}`,
      `organizer=${host}`,
      "featured=true",
      "ticketed=false",
      "geoloc=true",
      "geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=5",
      `search=${encodeURIComponent('jazz night "weekly jazz" -opera -ab ni')}`,
      "modified_after=2000-01-01",
      "sync_cursor=0",
      `series=${series.id}`,
      "start_date=2030-01-01&end_date=2030-12-31",
      "starts_after=2029-12-31&starts_before=2031-01-01",
      "ends_after=2029-12-31&ends_before=2031-01-01",
      "strict_dates=false",
      "per_page=50&page=1",
    ].join("&");
    for (const [who, extra, headers] of [
      ["anonymous", "password=secret", {}],
      ["an editor", "context=edit&status=publish,draft,pending,private,future", ADMIN],
    ] as const) {
      const res = await api(`${NS}/events?${all}&${extra}`, { headers });
      expect(res.status, `${who}: ${res.text}`).toBe(200);
      // Every week of 2030 (computed: past the two stored years), each of the series.
      expect(res.body.total, who).toBeGreaterThanOrEqual(52);
      for (const e of res.body.events) expect(e.start_date.slice(0, 4), who).toBe("2030");
      const ics = await api(`${NS}/events.ics?${all}&${extra}`, { headers });
      expect(ics.status, `${who}: ${ics.text}`).toBe(200);
      expect(ics.text).toContain("SUMMARY:Weekly jazz night");
    }
    // include and uid ignore dates: with every other filter, they name the series' first event.
    const first = await api(
      `${NS}/events?${all}&include=${series.id},${series.id + 1}&uid=${encodeURIComponent(series.series.uid)}`,
      { headers: ADMIN },
    );
    expect(first.status, first.text).toBe(200);
  });
});
