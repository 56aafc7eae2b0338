import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";

const create = (json: Record<string, unknown>) =>
  api(`${NS}/events`, {
    json: { start_date: day(5, "10:00:00"), end_date: day(5, "11:00:00"), ...json },
    headers: ADMIN,
  });

describe("PUT/PATCH/POST /events/{id}: true partial updates (contract §4 row 10)", () => {
  it("changes exactly the fields it names", async () => {
    const made = (
      await create({
        title: "Yoga",
        description: "Bring a mat.",
        status: "draft",
        featured: true,
        sticky: true,
        website: "https://yoga.example.com",
        cost: "$5",
        timezone: "Europe/Berlin",
        venue: { venue: "Studio" },
        organizer: [{ organizer: "Coach" }],
        categories: ["Health"],
      })
    ).body;
    const res = await api(`${NS}/events/${made.id}`, {
      method: "PUT",
      json: { title: "Morning Yoga", cost: "5" },
      headers: ADMIN,
    });
    expect(res.status).toBe(200);
    const e = res.body;
    expect(e).toMatchObject({
      title: "Morning Yoga",
      status: "draft",
      featured: true,
      sticky: true,
      website: "https://yoga.example.com",
      timezone: "Europe/Berlin",
      start_date: made.start_date,
      utc_start_date: made.utc_start_date,
      cost: "$5",
      description: "<p>Bring a mat.</p>",
    });
    expect(e.venue.venue).toBe("Studio");
    expect(e.organizer.map((o: any) => o.organizer)).toEqual(["Coach"]);
    expect(e.categories.map((t: any) => t.name)).toEqual(["Health"]);
    expect(e.modified_utc >= made.modified_utc).toBe(true);
  });

  it('clears organizers with [], unlinks the venue with 0/""/null, clears terms with ""', async () => {
    const made = (
      await create({
        title: "Linked",
        venue: { venue: "Hall" },
        organizer: [{ organizer: "A" }, { organizer: "B" }],
        tags: "x,y",
      })
    ).body;
    expect(made.tags.map((t: any) => t.name)).toEqual(["x", "y"]);
    for (const venue of [0, "", null]) {
      await api(`${NS}/events/${made.id}`, {
        method: "PATCH",
        json: { venue: made.venue.id },
        headers: ADMIN,
      });
      const res = await api(`${NS}/events/${made.id}`, {
        method: "PATCH",
        json: { venue },
        headers: ADMIN,
      });
      expect(res.body.venue, String(venue)).toEqual([]);
    }
    const res = await api(`${NS}/events/${made.id}`, {
      method: "POST",
      json: { organizer: [], tags: "" },
      headers: ADMIN,
    });
    expect(res.body).toMatchObject({ organizer: [], tags: [] });
  });

  it("re-reads given wall-clock times in a new time zone and keeps the other date", async () => {
    const made = (
      await create({
        title: "Call",
        start_date: "2027-01-10 09:00:00",
        end_date: "2027-01-10 10:00:00",
        timezone: "UTC",
      })
    ).body;
    const res = await api(`${NS}/events/${made.id}`, {
      method: "PUT",
      json: { start_date: "2027-01-10 08:00:00", timezone: "America/New_York" },
      headers: ADMIN,
    });
    expect(res.body).toMatchObject({
      start_date: "2027-01-10 08:00:00",
      utc_start_date: "2027-01-10 13:00:00",
      end_date: "2027-01-10 10:00:00",
      utc_end_date: "2027-01-10 15:00:00",
      timezone_abbr: "EST",
    });
  });

  it("updates by slug and can rename the slug", async () => {
    await create({ title: "Old Name" });
    const res = await api(`${NS}/events/by-slug/old-name`, {
      method: "PATCH",
      json: { title: "New Name", slug: "new-name" },
      headers: ADMIN,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ title: "New Name", slug: "new-name" });
    expect((await api(`${NS}/events/by-slug/new-name`)).status).toBe(200);
  });

  it("accepts form-encoded bodies with PHP brackets", async () => {
    const res = await api(`${NS}/events`, {
      form: {
        title: "Form Event",
        start_date: "2027-03-01 10:00:00",
        end_date: "2027-03-01 12:00:00",
        "venue[venue]": "Form Hall",
        "venue[city]": "Bonn",
        "organizer[0][organizer]": "First",
        "organizer[1][organizer]": "Second",
        "categories[]": "Talks",
        show_map: "false",
        all_day: "0",
      },
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      show_map: false,
      all_day: false,
      venue: { venue: "Form Hall", city: "Bonn" },
    });
    expect(res.body.organizer.map((o: any) => o.organizer)).toEqual(["First", "Second"]);
  });
});

describe("DELETE /events/{id} (§8.7, contract: force)", () => {
  it("trashes, then 410 event-is-in-trash, then deletes permanently with force, never reusing the id", async () => {
    const made = (await create({ title: "Doomed", categories: ["Temp"] })).body;
    const trashed = await api(`${NS}/events/${made.id}`, { method: "DELETE", headers: ADMIN });
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ id: made.id, status: "trash" });
    const again = await api(`${NS}/events/${made.id}`, { method: "DELETE", headers: ADMIN });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({
      code: "event-is-in-trash",
      message: "The event is already trashed",
      data: { status: 410 },
    });
    const gone = await api(`${NS}/events/${made.id}?force=true`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect(gone.status).toBe(200);
    expect(gone.body).toMatchObject({ deleted: true, previous: { id: made.id, title: "Doomed" } });
    expect((await api(`${NS}/events/${made.id}`)).status).toBe(404);
    const next = (await create({ title: "Next" })).body;
    expect(next.id).toBeGreaterThan(made.id);
  });

  it("deletes by slug", async () => {
    await create({ title: "Slugged" });
    const res = await api(`${NS}/events/by-slug/slugged`, { method: "DELETE", headers: ADMIN });
    expect(res.body.status).toBe("trash");
  });
});
