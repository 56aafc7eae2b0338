/**
 * `image` URLs given with events, venues and organizers (tec-reference §3 `is_image`, §8.2):
 * a URL new to the media library is checked with a `HEAD` request (test/support/network.ts
 * plays the image hosts) and becomes a media item, which later requests naming the same URL reuse.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { seedMedia } from "../support/factories";
import { network } from "../support/network";

const times = { start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" };
const heads = () => network.requests.filter((r) => r.method === "HEAD").map((r) => r.url);
const mediaRows = async () =>
  (
    await env.DB.prepare("SELECT id, source_url, mime_type FROM media ORDER BY id").all<{
      id: number;
      source_url: string;
      mime_type: string;
    }>()
  ).results;

describe("image URLs on writes (§3 is_image, §8.2)", () => {
  it("checks a new URL with HEAD, adds it to the media library with the type it answered, and reuses it", async () => {
    const url = "https://img.example.com/fair.jpg";
    const first = await api(`${NS}/events`, {
      json: { title: "Fair", ...times, image: url },
      headers: ADMIN,
    });
    expect(first.status).toBe(201);
    expect(first.body.image).toMatchObject({ url, extension: "jpg" });
    expect(heads()).toEqual([url]);
    const media = await api(`/wp-json/wp/v2/media/${first.body.image.id}`);
    expect(media.body).toMatchObject({ source_url: url, mime_type: "image/jpeg" });

    // The same URL again (an event, a venue, in German): the media item is reused, nothing is fetched.
    const again = await api(`/de${NS}/events`, {
      json: { title: "Fair 2", ...times, image: url },
      headers: ADMIN,
    });
    const venue = await api(`${NS}/venues`, {
      json: { venue: "Hall", image: url },
      headers: ADMIN,
    });
    expect(again.body.image.id).toBe(first.body.image.id);
    expect(venue.body.image.id).toBe(first.body.image.id);
    expect(heads()).toEqual([url]);
    expect(await mediaRows()).toHaveLength(1);
  });

  it("follows redirects, takes the type from the answer (a URL without extension), and names one URL once", async () => {
    const redirected = "https://img.example.com/r/3/poster.webp";
    const cdn = "https://cdn.example.net/photo";
    const res = await api(`${NS}/events`, {
      json: {
        title: "Many pictures",
        ...times,
        image: redirected,
        venue: { venue: "Gallery", image: cdn },
        organizer: [
          { organizer: "Painter", image: cdn },
          { organizer: "Sculptor", image: "https://img.example/bust.avif" },
        ],
      },
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.image.url).toBe(redirected);
    expect(res.body.venue.image.url).toBe(cdn);
    expect(res.body.organizer[0].image.id).toBe(res.body.venue.image.id);
    expect(res.body.organizer[1].image.url).toBe("https://img.example/bust.avif");
    expect((await mediaRows()).map((m) => [m.source_url, m.mime_type]).sort()).toEqual([
      [cdn, "image/png"],
      ["https://img.example.com/r/3/poster.webp", "image/webp"],
      ["https://img.example/bust.avif", "image/avif"],
    ]);
    // Four redirects, then the image; one request per other URL (the CDN URL once).
    expect(heads().filter((u) => u.includes("/r/")).length).toBe(4);
    expect(heads()).toContain("https://img.example.com/poster.webp");
    expect(heads().filter((u) => u === cdn).length).toBe(1);
  });

  it("takes media ids of images, and URLs already in the media library, without a request", async () => {
    const known = await seedMedia("https://elsewhere.invalid/known.png");
    const byId = await api(`${NS}/organizers`, {
      json: { organizer: "Known", image: known },
      headers: ADMIN,
    });
    expect(byId.body.image.id).toBe(known);
    const byUrl = await api(`${NS}/events`, {
      json: { title: "Known", ...times, image: "https://elsewhere.invalid/known.png" },
      headers: ADMIN,
    });
    expect(byUrl.body.image.id).toBe(known);
    expect(network.requests).toEqual([]);
  });

  it("an update may replace the image by URL, and remove it with an empty value", async () => {
    const created = await api(`${NS}/events`, { json: { title: "E", ...times }, headers: ADMIN });
    const path = `${NS}/events/${created.body.id}`;
    const set = await api(path, {
      method: "PATCH",
      json: { image: "https://img.example.com/new.gif" },
      headers: ADMIN,
    });
    expect(set.body.image).toMatchObject({ url: "https://img.example.com/new.gif" });
    const removed = await api(path, { method: "PATCH", json: { image: "" }, headers: ADMIN });
    expect(removed.status).toBe(200);
    expect(removed.body.image).toBe(false);
  });

  it("IMAGE_URL_CHECK=off (local development offline) goes by the extension and sends nothing", async () => {
    const offline = { ...env, IMAGE_URL_CHECK: "off" } as never;
    const send = (json: unknown) =>
      worker.fetch(
        new Request(`${ORIGIN}${NS}/events`, {
          method: "POST",
          headers: { ...ADMIN, "content-type": "application/json" },
          body: JSON.stringify(json),
        }),
        offline,
        { waitUntil: () => {}, passThroughOnException: () => {} } as never,
      );
    const ok = await send({ title: "Offline", ...times, image: "https://nowhere.invalid/a.png" });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { image: { url: string } }).image.url).toBe(
      "https://nowhere.invalid/a.png",
    );
    const svg = await send({ title: "Offline", ...times, image: "https://nowhere.invalid/a.svg" });
    expect(svg.status).toBe(400);
    expect(network.requests).toEqual([]);
  });
});
