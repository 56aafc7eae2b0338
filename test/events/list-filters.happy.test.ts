import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { events } from "../../src/db/schema";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { db, seedEvent, seedVenue } from "../support/factories";

const ids = async (q: string, headers: Record<string, string> = {}) => {
  const res = await api(`${NS}/events?${q}`, { headers });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.events.map((e: any) => e.id);
};

describe("GET /events: the contract's filters", () => {
  it("geoloc keeps events whose venue has coordinates; geoloc_lat/lng within geoloc_radius km", async () => {
    const berlin = await seedVenue({ title: "Berlin", geoLat: 52.52, geoLng: 13.405 });
    const potsdam = await seedVenue({ title: "Potsdam", geoLat: 52.39, geoLng: 13.065 });
    const nowhere = await seedVenue({ title: "Nowhere" });
    const a = await seedEvent({ title: "A", start: day(1), venueId: berlin });
    const b = await seedEvent({ title: "B", start: day(2), venueId: potsdam });
    const c = await seedEvent({ title: "C", start: day(3), venueId: nowhere });
    const d = await seedEvent({ title: "D", start: day(4) });
    expect(await ids("geoloc=true")).toEqual([a, b]);
    expect(await ids("geoloc=false")).toEqual([c, d]);
    // Potsdam lies about 26 km from Berlin's centre: outside the default radius of 25 km.
    expect(await ids("geoloc_lat=52.52&geoloc_lng=13.405")).toEqual([a]);
  });

  it("narrows by radius", async () => {
    const berlin = await seedVenue({ title: "Berlin", geoLat: 52.52, geoLng: 13.405 });
    const potsdam = await seedVenue({ title: "Potsdam", geoLat: 52.39, geoLng: 13.065 });
    const a = await seedEvent({ title: "A", start: day(1), venueId: berlin });
    const b = await seedEvent({ title: "B", start: day(2), venueId: potsdam });
    expect(await ids("geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=10")).toEqual([a]);
    expect(await ids("geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=50")).toEqual([a, b]);
    const rest = new URL(
      (await api(`${NS}/events?geoloc_lat=52.52&geoloc_lng=13.405`)).body.rest_url,
    ).searchParams;
    expect(rest.get("geoloc_radius")).toBe("25");
  });

  it("filters by ticketed, post_parent, status lists, modified_after and uid", async () => {
    const parent = await seedEvent({ title: "Parent", start: day(1) });
    const child = await seedEvent({
      title: "Child",
      start: day(2),
      postParent: parent,
      ticketed: true,
    });
    const draft = await seedEvent({ title: "Draft", start: day(3), status: "draft" });
    expect(await ids("ticketed=true")).toEqual([child]);
    expect(await ids("ticketed=false")).toEqual([parent]);
    expect(await ids(`post_parent=${parent}`)).toEqual([child]);
    expect(await ids("status=draft,publish", ADMIN)).toEqual([parent, child, draft]);
    await db()
      .update(events)
      .set({ changedGmt: "2030-01-01 00:00:00", uid: "x-1@example.com" })
      .where(eq(events.id, child));
    expect(await ids("modified_after=2029-12-31T00:00:00Z")).toEqual([child]);
    expect(await ids("uid=x-1@example.com,unknown")).toEqual([child]);
  });
});
