/**
 * Texts as WordPress renders them (docs/reference.md §12.4; the README's contract section): these
 * answers changed when hand-written helpers gave way to the libraries WordPress's own behaviour is
 * packaged in — `wpautop` (`@wordpress/autop`) around block markup and lists, every HTML5 named
 * reference decoded where plain text is made (JSON-LD, the iCalendar feed, imports), and
 * `remove_accents` for slugs. Everything else reads as before.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";

async function create(body: Record<string, unknown>) {
  const res = await api(`${NS}/events`, {
    json: { start_date: day(3), end_date: day(3, "12:00:00"), ...body },
    headers: ADMIN,
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("texts as WordPress renders them", () => {
  it("descriptions go through WordPress's wpautop: text between blocks becomes paragraphs", async () => {
    const event = await create({
      title: "Blocks",
      description:
        "<div>Schedule</div>\n\nDoors open at 7.\nBar from 6.\n\n<ul><li>Jazz</li></ul>\nThanks",
    });
    expect(event.description).toBe(
      "<div>Schedule</div>\n<p>Doors open at 7.<br />\nBar from 6.</p>\n<ul>\n<li>Jazz</li>\n</ul>\n<p>Thanks</p>",
    );
    // Plain paragraphs read as before.
    expect((await create({ title: "Mat", description: "Bring a mat." })).description).toBe(
      "<p>Bring a mat.</p>",
    );
  });

  it("plain text made from HTML decodes every named reference (JSON-LD, the feed)", async () => {
    const event = await create({
      title: "Entities",
      description: "<p>Doors 7&ndash;9 &hellip; bring &euro;5 &amp; a friend</p>",
    });
    const single = await api(`${NS}/events/${event.id}`);
    expect(single.body.json_ld.description).toBe("Doors 7–9 … bring €5 & a friend");
    const feed = await api(`${NS}/events.ics?include=${event.id}`);
    expect(feed.text.replace(/\r\n /g, "")).toContain(
      "DESCRIPTION:Doors 7–9 … bring €5 & a friend",
    );
  });

  it("slugs drop accents as WordPress's remove_accents does", async () => {
    const event = await create({ title: "Ærø Straße Œuvre ŋ" });
    expect(event.slug).toBe("aero-strase-oeuvre-n");
    const term = await api(`${NS}/categories`, { json: { name: "Café Ørsted" }, headers: ADMIN });
    expect(term.body.slug).toBe("cafe-orsted");
  });
});
