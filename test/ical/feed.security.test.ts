import { describe, expect, it } from "vitest";
import { POST_PASSWORD, seedWorld } from "../hardening/support/world";
import { ADMIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedUser, seedVenue } from "../support/factories";
import { feed, parse, prop } from "./support";

const titles = async (query = "", headers: Record<string, string> = {}) => {
  const res = await feed(query, headers);
  expect(res.status).toBe(200);
  return parse(res.text)
    .events.map((e) => e.summary)
    .sort();
};

describe("GET /events.ics: who sees what (§4.7, §6.1, §9.2)", () => {
  it("shows anonymous callers published events only, and refuses them other statuses", async () => {
    await seedEvent({ title: "Public", start: day(1) });
    await seedEvent({ title: "Draft", start: day(1), status: "draft" });
    await seedEvent({ title: "Private", start: day(1), status: "private" });
    await seedEvent({ title: "Pending", start: day(1), status: "pending" });
    await seedEvent({ title: "Trashed", start: day(1), status: "trash" });
    expect(await titles()).toEqual(["Public"]);
    expect((await feed("?status=draft")).status).toBe(400);
    expect((await feed("?status=publish,private")).status).toBe(400);
  });

  it("gives editors every status like /events (drafts marked TENTATIVE), privately; authors only their own", async () => {
    await seedEvent({ title: "Public", start: day(1) });
    await seedEvent({ title: "Draft", start: day(1), status: "draft" });
    await seedEvent({ title: "Trashed", start: day(1), status: "trash" });
    const author = await seedUser("author");
    await seedEvent({ title: "Author's draft", start: day(1), status: "draft", author: author.id });
    expect(await titles("", ADMIN)).toEqual(["Author's draft", "Draft", "Public"]);
    expect(await titles("?status=draft", ADMIN)).toEqual(["Author's draft", "Draft"]);
    expect(await titles("?status=trash", ADMIN)).toEqual(["Trashed"]);
    expect(await titles("?status=draft", author.headers)).toEqual(["Author's draft"]);
    const res = await feed("?status=draft", ADMIN);
    expect(prop(parse(res.text).events[0].component, "status")).toBe("TENTATIVE");
    expect(res.headers.get("cache-control")).toContain("private");
    expect(res.headers.get("etag")).toBeNull();
  });

  it("never leaks the protected fields of password-protected events", async () => {
    const venue = await seedVenue({
      title: "Secret Hall",
      address: "1 Hidden Way",
      geoLat: 1,
      geoLng: 2,
    });
    const org = await seedOrganizer({ title: "Secret Org", email: "secret@example.com" });
    const cat = await seedTerm("tribe_events_cat", "Secret Category");
    await seedEvent({
      title: "Protected",
      content: "Secret text",
      start: day(1),
      password: "pw",
      venueId: venue,
      organizerIds: [org],
      termIds: [cat],
      website: "https://secret.example.com",
    });
    const closed = await feed();
    for (const secret of [
      "Secret text",
      "Secret Hall",
      "Hidden Way",
      "Secret Org",
      "secret@example.com",
      "Secret Category",
      "secret.example.com",
      "GEO",
      "VLOCATION",
      "VPARTICIPANT",
    ]) {
      expect(closed.text).not.toContain(secret);
    }
    const [e] = parse(closed.text).events;
    expect(e.summary).toBe("Protected");
    expect(prop(e.component, "class")).toBe("CONFIDENTIAL");
    expect(prop(e.component, "url")).toBe("http://calendar.test/event/protected/");
    // A wrong password opens nothing; the right one (or an editor's context=edit) opens the event.
    expect((await feed("?password=nope")).text).not.toContain("Secret text");
    expect((await feed("?password=pw")).text).toContain("Secret text");
    expect((await feed("?context=edit")).text).not.toContain("Secret text");
    expect((await feed("?context=edit", ADMIN)).text).toContain("Secret Hall");
  });

  it("blanks a password-protected venue's and organizer's fields in a public event (names kept), as /events does (§4.7)", async () => {
    const w = await seedWorld();
    await seedEvent({
      title: "Carrier",
      start: day(2),
      venueId: w.venues.protected,
      organizerIds: [w.organizers.protected],
    });
    // LOCATION's address, ORGANIZER's mailto, and the JSON-LD of VLOCATION and VPARTICIPANT.
    const unfold = (text: string) => text.replace(/\r?\n[ \t]/g, "");
    const text = unfold((await feed()).text);
    expect(text).toContain("Carrier");
    expect(text).not.toMatch(
      /protected street|555-protected|protected@organizer|protected-secret-description/,
    );
    expect(text).toMatch(/LOCATION:venue protected name\r?\n/);
    // The post password opens them, as it does in the JSON list (contract §4 row 18).
    const opened = unfold((await feed(`?password=${encodeURIComponent(POST_PASSWORD)}`)).text);
    expect(opened).toContain("LOCATION:venue protected name\\, 1 protected street");
    expect(opened).toContain("mailto:protected@organizer.example");
  });
});
