/**
 * Who may make the worker fetch a URL (tec-reference §3 `is_image`: a URL needs `upload_files`):
 * authors and up. Contributors, subscribers and anonymous callers get 400
 * `rest_invalid_param` before anything is fetched or written — also for a URL already in the media
 * library — and the check never reaches internal addresses.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { api, NS } from "../support/api";
import { seedMedia, seedUser } from "../support/factories";
import { network } from "../support/network";

const times = { start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" };
const count = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe("image URLs need upload_files (§3 is_image)", () => {
  it.each(["contributor", "subscriber"] as const)(
    "%s: 400 image for new and known URLs, nothing fetched, nothing written",
    async (role) => {
      const user = await seedUser(role);
      await seedMedia("https://img.example.com/known.jpg");
      for (const image of [
        "https://img.example.com/new.jpg",
        "https://img.example.com/known.jpg",
      ]) {
        for (const [path, json, param] of [
          [`${NS}/events`, { title: "E", ...times, image }, "image"],
          [`${NS}/events`, { title: "E", ...times, venue: { venue: "V", image } }, "venue"],
          [`${NS}/venues`, { venue: "V", image }, "image"],
          [`${NS}/organizers`, { organizer: "O", image }, "image"],
        ] as const) {
          const res = await api(path, { json, headers: user.headers });
          expect(res.status, `${path} ${JSON.stringify(json)}`).toBe(400);
          expect(Object.keys(res.body.data.params)).toEqual([param]);
        }
      }
      expect(network.requests).toEqual([]);
      expect(await count("events")).toBe(0);
      expect(await count("venues")).toBe(0);
      expect(await count("media")).toBe(1);
    },
  );

  it("anonymous callers: 400 before 401 (validators run first, §1.3), nothing fetched", async () => {
    const res = await api(`${NS}/events`, {
      json: { title: "E", ...times, image: "https://img.example.com/a.jpg" },
    });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(["image"]);
    const plain = await api(`${NS}/events`, { json: { title: "E", ...times } });
    expect(plain.status).toBe(401);
    expect(network.requests).toEqual([]);
  });

  it("contributors may still use media ids of images", async () => {
    const contributor = await seedUser("contributor");
    const image = await seedMedia("https://img.example.com/known.jpg");
    const res = await api(`${NS}/events`, {
      json: { title: "E", ...times, image },
      headers: contributor.headers,
    });
    expect(res.status).toBe(201);
    expect(res.body.image.id).toBe(image);
  });

  it("authors may; the check never requests loopback, private, reserved or single-label hosts", async () => {
    const author = await seedUser("author");
    for (const image of [
      "http://127.0.0.1/a.jpg",
      "http://localhost:8787/a.jpg",
      "http://10.1.2.3/a.jpg",
      "http://192.168.0.1/a.jpg",
      "http://169.254.169.254/latest/a.jpg",
      "http://[::1]/a.jpg",
      "http://intranet/a.jpg",
      "https://img.example.com/internal/a.jpg",
      // The table webhook targets are judged by (src/lib/special-addresses.ts).
      "http://198.51.100.7/a.jpg",
      "http://192.0.0.9/a.jpg",
      "http://[2001:db8::1]/a.jpg",
      "http://[100::1]/a.jpg",
      "http://[64:ff9b::a00:1]/a.jpg", // NAT64 of 10.0.0.1
      "http://[2002:a00:1::]/a.jpg", // 6to4 of 10.0.0.1
      "http://printer.local/a.jpg",
      "http://db.internal/a.jpg",
    ]) {
      const res = await api(`${NS}/venues`, {
        json: { venue: "V", image },
        headers: author.headers,
      });
      expect(res.status, image).toBe(400);
    }
    expect(network.requests.map((r) => new URL(r.url).hostname)).toEqual(["img.example.com"]);
    const ok = await api(`${NS}/venues`, {
      json: { venue: "V", image: "https://img.example.com/a.jpg" },
      headers: author.headers,
    });
    expect(ok.status).toBe(201);
  });
});
