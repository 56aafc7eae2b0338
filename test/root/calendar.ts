/**
 * A small calendar with every shape the payloads can take: full and empty venues and organizers,
 * images, nested categories, tags, costs, password-protected posts, an event without venue.
 */
import { expect } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedMedia, seedOrganizer, seedTerm, seedVenue } from "../support/factories";

export interface Calendar {
  full: { id: number; slug: string };
  protectedEvent: number;
  venue: { id: number; slug: string };
  protectedVenue: number;
  organizer: { id: number; slug: string };
  category: number;
  tag: number;
}

/** Seeds the calendar: straight into D1 for linked posts and terms, through the API for the rich event. */
export async function seedCalendar(): Promise<Calendar> {
  const image = await seedMedia("https://cdn.example.com/img/hall.jpg", {
    width: 1200,
    height: 800,
  });
  const logo = await seedMedia("https://cdn.example.com/img/logo.png");
  const venue = await seedVenue({
    title: "Town Hall",
    content: "Main hall",
    excerpt: "Hall",
    address: "1 Main St",
    city: "Springfield",
    country: "United States",
    state: "IL",
    zip: "62701",
    phone: "+1 555 0100",
    website: "https://hall.example.com",
    stateprovince: "IL",
    geoLat: 39.78,
    geoLng: -89.65,
    imageId: image,
  });
  const bareVenue = await seedVenue({ title: "Somewhere", showMap: false });
  const protectedVenue = await seedVenue({
    title: "Secret Cellar",
    city: "Hidden",
    password: "open sesame",
  });
  const organizer = await seedOrganizer({
    title: "Jazz Society",
    phone: "555-0101",
    website: "https://jazz.example.com",
    email: "hi@jazz.example.com",
    content: "Since 1950",
    imageId: logo,
  });
  const bareOrganizer = await seedOrganizer({ title: "Anonymous", author: null });
  const parent = await seedTerm("tribe_events_cat", "Music");
  const category = await seedTerm("tribe_events_cat", "Jazz", { parent });
  const tag = await seedTerm("post_tag", "Outdoor");

  const created = await api(`${NS}/events`, {
    headers: ADMIN,
    json: {
      title: "Jazz Night",
      description: "An evening of <b>jazz</b>.",
      excerpt: "Jazz!",
      start_date: day(2, "19:00:00"),
      end_date: day(2, "23:00:00"),
      timezone: "America/Chicago",
      venue,
      organizer: [organizer, bareOrganizer],
      categories: [category],
      tags: [tag],
      image,
      cost: ["10", "20"],
      website: "https://tickets.example.com",
      featured: true,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await seedEvent({
    title: "Open Air",
    start: day(3),
    end: day(3, "12:00:00"),
    venueId: bareVenue,
    allDay: true,
  });
  const protectedEvent = await seedEvent({
    title: "Members Only",
    start: day(4),
    password: "members",
    organizerIds: [organizer],
    termIds: [tag],
    venueId: venue,
    cost: ["0"],
  });
  return {
    full: { id: created.body.id, slug: created.body.slug },
    protectedEvent,
    venue: { id: venue, slug: "town-hall" },
    protectedVenue,
    organizer: { id: organizer, slug: "jazz-society" },
    category,
    tag,
  };
}
