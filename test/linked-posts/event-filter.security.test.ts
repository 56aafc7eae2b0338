/**
 * `GET /venues?event={id}` and `/organizers?event={id}` tell only those who may read
 * the event what it links to. For anyone else an event that is a draft, pending, scheduled, private
 * or trashed filters as an event that does not exist: 400 `rest_invalid_param` naming `event`, the
 * same answer as for an id nobody has.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedUser, seedVenue } from "../support/factories";

describe("the event filter of venues and organizers applies the event's visibility", () => {
  it("unreadable events answer like missing ones; readers see the links", async () => {
    const owner = await seedUser("author", "owner");
    const otherAuthor = await seedUser("author", "other");
    const subscriber = await seedUser("subscriber");
    const editor = await seedUser("editor");
    const venue = await seedVenue({ title: "Secret Warehouse" });
    const organizer = await seedOrganizer({ title: "Quiet Promoter" });
    const linked = (status: string) =>
      seedEvent({
        title: `Plans ${status}`,
        start: day(3),
        status,
        author: owner.id,
        venueId: venue,
        organizerIds: [organizer],
      });
    const published = await linked("publish");
    const hidden = {
      draft: await linked("draft"),
      pending: await linked("pending"),
      future: await linked("future"),
      private: await linked("private"),
      trash: await linked("trash"),
    };

    for (const plural of ["venues", "organizers"]) {
      const missing = await api(`${NS}/${plural}?event=999999`);
      expect(missing.status).toBe(400);
      expect(Object.keys(missing.body.data.params)).toEqual(["event"]);
      const names = (res: { body: any }) =>
        (res.body[plural] ?? []).map((p: any) => p.venue ?? p.organizer);
      const expected = [plural === "venues" ? "Secret Warehouse" : "Quiet Promoter"];

      expect(names(await api(`${NS}/${plural}?event=${published}`))).toEqual(expected);

      for (const [status, id] of Object.entries(hidden)) {
        for (const [who, headers] of [
          ["anonymous", {}],
          ["subscriber", subscriber.headers],
          ["another author", otherAuthor.headers],
        ] as const) {
          const res = await api(`${NS}/${plural}?event=${id}`, { headers });
          expect(res.status, `${plural} ${status} ${who}`).toBe(400);
          expect(res.body, `${plural} ${status} ${who}`).toEqual(missing.body);
        }
        // Its author and editors read it, and its links.
        for (const [who, headers] of [
          ["owner", owner.headers],
          ["editor", editor.headers],
          ["administrator", ADMIN],
        ] as const) {
          const res = await api(`${NS}/${plural}?event=${id}`, { headers });
          expect(res.status, `${plural} ${status} ${who}`).toBe(200);
          expect(names(res), `${plural} ${status} ${who}`).toEqual(expected);
        }
      }
    }
  });
});
