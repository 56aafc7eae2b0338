/**
 * What `is_image` refuses (tec-reference §3, §10.2): every refusal is a 400
 * `rest_invalid_param` naming the parameter (`image`, or the `venue`/`organizer` whose object holds
 * it), in the request's language, never a 5xx, and nothing is written.
 */
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { media } from "../../src/db/schema";
import { IMAGE_CHECK_TIMEOUT_MS } from "../../src/media/url-check";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { db, seedEvent, seedMedia } from "../support/factories";
import { network } from "../support/network";

const times = { start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" };

/** Rows a write could add, and the content version. */
const snapshot = () =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM posts) p, (SELECT count(*) FROM media) m, (SELECT count(*) FROM events) e, (SELECT count(*) FROM venues) v, (SELECT count(*) FROM organizers) o, (SELECT version FROM content_version) cv",
  ).first();

async function expectRefused(
  path: string,
  json: Record<string, unknown>,
  params: string[],
  method = "POST",
) {
  const before = await snapshot();
  const res = await api(path, { method, json, headers: ADMIN });
  expect(res.status, JSON.stringify(json)).toBe(400);
  expect(res.body.code).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params)).toEqual(params);
  expect(await snapshot()).toEqual(before);
  return res;
}

describe("image ids (§3 is_image: an attachment whose type is an image)", () => {
  it("refuses 0, '0', false and an empty image on an event create, as TEC does", async () => {
    for (const image of [0, "0", false, "", "  "])
      await expectRefused(`${NS}/events`, { title: "E", ...times, image }, ["image"]);
  });

  it("refuses 0 on an update, ids of other posts, unknown ids and media that are not images", async () => {
    const event = await seedEvent({ title: "E", start: day(1) });
    const pdf = await seedMedia("https://img.example.com/menu.pdf");
    await db().update(media).set({ mimeType: "application/pdf" }).where(eq(media.id, pdf));
    await expectRefused(`${NS}/events/${event}`, { image: 0 }, ["image"], "PATCH");
    for (const image of [event, 999, pdf, `${pdf}`]) {
      await expectRefused(`${NS}/events`, { title: "E", ...times, image }, ["image"]);
      await expectRefused(`${NS}/venues`, { venue: "V", image }, ["image"]);
      await expectRefused(
        `${NS}/events`,
        { title: "E", ...times, organizer: [{ organizer: "O", image }] },
        ["organizer"],
      );
    }
  });
});

describe("image URLs (§3 is_image: HEAD must answer 200 with an allowed image type)", () => {
  const refused = [
    ["a 404", "https://img.example.com/missing.jpg"],
    ["an HTML page", "https://img.example.com/gallery.html"],
    ["a PDF", "https://img.example.com/menu.pdf"],
    ["an SVG (not an upload type)", "https://img.example.com/logo.svg"],
    ["an unreachable host", "https://images.unreachable.org/a.jpg"],
    ["too many redirects", "https://img.example.com/r/6/a.jpg"],
    ["a redirect to an internal address", "https://img.example.com/internal/a.jpg"],
  ] as const;

  it.each(refused)(
    "refuses %s for events, venues and organizers, nested or not",
    async (_, url) => {
      await expectRefused(`${NS}/events`, { title: "E", ...times, image: url }, ["image"]);
      await expectRefused(`${NS}/venues`, { venue: "V", image: url }, ["image"]);
      await expectRefused(`${NS}/organizers`, { organizer: "O", image: url }, ["image"]);
      await expectRefused(
        `${NS}/events`,
        { title: "E", ...times, venue: { venue: "V", image: url } },
        ["venue"],
      );
      await expectRefused(
        `${NS}/events`,
        { title: "E", ...times, organizer: [{ organizer: "O" }, { organizer: "P", image: url }] },
        ["organizer"],
      );
    },
  );

  it("refuses an update's URL and keeps the event as it was", async () => {
    const image = await seedMedia("https://img.example.com/kept.jpg");
    const event = await seedEvent({ title: "E", start: day(1) });
    await api(`${NS}/events/${event}`, { method: "PATCH", json: { image }, headers: ADMIN });
    const before = (await api(`${NS}/events/${event}`)).body;
    await expectRefused(
      `${NS}/events/${event}`,
      { title: "Renamed", image: "https://img.example.com/missing.png" },
      ["image"],
      "PATCH",
    );
    expect((await api(`${NS}/events/${event}`)).body).toEqual(before);
  });

  it("names every failing parameter at once, in German too", async () => {
    const res = await api(`/de${NS}/events`, {
      json: {
        title: "E",
        ...times,
        image: "https://img.example.com/missing.jpg",
        venue: { venue: "V", image: "https://img.example.com/page.html" },
      },
      headers: ADMIN,
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "rest_invalid_param",
      message: "Ungültige(r) Parameter: image, venue",
      data: {
        status: 400,
        params: { image: "Ungültiger Parameter.", venue: "Ungültiger Parameter." },
      },
    });
  });

  it("gives up after its timeout: 400, not 5xx", async () => {
    // The host never answers. The check's timeout is driven, not waited for: its signal is one the
    // test aborts, as the timer would, once the request hangs.
    const timer = new AbortController();
    const timeout = vi.spyOn(AbortSignal, "timeout").mockReturnValue(timer.signal);
    network.onHang = () =>
      timer.abort(new DOMException("The operation timed out.", "TimeoutError"));
    try {
      await expectRefused(
        `${NS}/venues`,
        { venue: "V", image: "https://img.example.com/slow/a.jpg" },
        ["image"],
      );
      expect(timeout).toHaveBeenCalledWith(IMAGE_CHECK_TIMEOUT_MS);
    } finally {
      timeout.mockRestore();
    }
  });
});
