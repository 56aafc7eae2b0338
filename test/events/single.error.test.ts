import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedVenue } from "../support/factories";

describe("GET /events/{id}: errors (§4.7, §10.3)", () => {
  it("404 rest-event-not-found for an unknown id, with the id in the message", async () => {
    const res = await api(`${NS}/events/999999`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: "rest-event-not-found",
      message: "Event with ID 999999 does not exist.",
      data: { status: 404 },
    });
    expect((await api(`${NS}/events/0`)).body.code).toBe("rest-event-not-found");
  });

  it("400 rest-invalid-event-id for the id of a venue", async () => {
    const venue = await seedVenue({ title: "Hall" });
    const res = await api(`${NS}/events/${venue}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: "rest-invalid-event-id",
      message: "The specified ID is not a valid event.",
      data: { status: 400 },
    });
  });

  it("403 event-no-longer-available for trashed events, even for the administrator", async () => {
    const id = await seedEvent({ title: "Gone", start: day(1), status: "trash" });
    for (const headers of [{}, ADMIN]) {
      const res = await api(`${NS}/events/${id}`, { headers });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("event-no-longer-available");
    }
  });

  it("403 event-password-protected without or with a wrong password", async () => {
    const id = await seedEvent({ title: "Secret", start: day(1), password: "right" });
    for (const q of ["", "?password=wrong"]) {
      const res = await api(`${NS}/events/${id}${q}`);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        code: "event-password-protected",
        message: "The requested event is not accessible without a password",
        data: { status: 403 },
      });
    }
  });

  it("400 rest_invalid_param for an unknown slug", async () => {
    const res = await api(`${NS}/events/by-slug/no-such-event`);
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ slug: "Invalid parameter." });
  });
});
