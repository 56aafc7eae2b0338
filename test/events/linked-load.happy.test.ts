/**
 * What a page of events links to is read in one statement (src/events/load.ts): every
 * column type comes back as the venue, organizer, term and image objects of single reads
 * (tec-reference §4.1–§4.5) — booleans, numbers, JSON lists, organizer order — in lists, singles
 * and the iCalendar feed alike.
 */
import { describe, expect, it } from "vitest";
import { api, NS, roundTrips } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

describe("events embed their linked posts, read with the page", () => {
  it("a list, a single and the linked posts' own reads agree, field by field", async () => {
    const hallImage = await seedMedia("https://img.example/hall.jpg", { width: 640, height: 480 });
    const venue = await seedVenue({
      title: "Hall Ü",
      address: "1 Main St",
      showMap: false,
      showMapLink: true,
      geoLat: 52.52,
      geoLng: 13.405,
      imageId: hallImage,
      globalIdLineage: ["other.example?id=7"],
    });
    const faceImage = await seedMedia("https://img.example/face.png");
    const second = await seedOrganizer({ title: "Zed Org", email: "z@example.com" });
    const first = await seedOrganizer({ title: "Alpha Org", imageId: faceImage });
    const jazz = await seedTerm("tribe_events_cat", "Jazz");
    const tag = await seedTerm("post_tag", "Outdoor");
    const id = await seedEvent({
      title: "Linked",
      start: day(2, "19:00:00"),
      venueId: venue,
      organizerIds: [second, first],
      termIds: [jazz, tag],
    });

    const list = await api(`${NS}/events`);
    expect(roundTrips(list)).toBe(1);
    const listed = list.body.events.find((e: any) => e.id === id);
    const single = (await api(`${NS}/events/${id}`)).body;
    const { json_ld: _v, ...ownVenue } = (await api(`${NS}/venues/${venue}`)).body;
    const { json_ld: _o, ...ownOrganizer } = (await api(`${NS}/organizers/${first}`)).body;

    for (const event of [listed, single]) {
      const { json_ld: _e, ...embeddedVenue } = event.venue;
      expect(embeddedVenue).toEqual(ownVenue);
      expect(event.venue).toMatchObject({
        show_map: false,
        show_map_link: true,
        geo_lat: 52.52,
        geo_lng: 13.405,
        image: { id: hallImage, url: "https://img.example/hall.jpg", width: 640, height: 480 },
      });
      expect(event.venue.global_id_lineage).toContain("other.example?id=7");
      // Organizers keep the order they were linked in.
      expect(event.organizer.map((o: any) => o.id)).toEqual([second, first]);
      const { json_ld: _f, ...embeddedOrganizer } = event.organizer[1];
      expect(embeddedOrganizer).toEqual(ownOrganizer);
      expect(event.organizer[1].image.url).toBe("https://img.example/face.png");
      expect(event.categories.map((t: any) => t.id)).toEqual([jazz]);
      expect(event.tags.map((t: any) => t.id)).toEqual([tag]);
    }

    const feed = await api(`${NS}/events.ics`);
    expect(feed.text).toContain("LOCATION:Hall Ü");
    expect(feed.text).toContain("CATEGORIES:Jazz");
  });
});
