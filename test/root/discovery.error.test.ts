/**
 * Discovery's errors (contract §7.4): the plain-permalink form answers a route it does not know as the
 * pretty URL does (404 `rest_no_route`, in the request's language), and only the site root (with
 * or without a language prefix, `index.php` included) takes `rest_route`.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";

describe("rest_route errors", () => {
  it.each([
    ["/?rest_route=/nope", "No route was found matching the URL and request method."],
    [
      "/?rest_route=/tribe/events/v1/events/abc",
      "No route was found matching the URL and request method.",
    ],
    [
      "/de/?rest_route=/tribe/events/v1/nope",
      "Für die URL und die Anfragemethode wurde keine passende Route gefunden.",
    ],
    [
      "/?rest_route=//evil.example/wp-json/",
      "No route was found matching the URL and request method.",
    ],
    ["/?rest_route=/../../wp-json/x", "No route was found matching the URL and request method."],
  ])("%s → 404 rest_no_route", async (path, message) => {
    const res = await api(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: "rest_no_route", message, data: { status: 404 } });
  });

  it("is only read on the site root: other paths and unknown languages stay 404", async () => {
    for (const path of [
      `/xx/?rest_route=${NS}/events`,
      `/some/page/?rest_route=${NS}/events`,
      `/wp-json/nope?rest_route=${NS}/events`,
    ]) {
      const res = await api(path);
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe("rest_no_route");
    }
  });

  it("answers errors of the route exactly as the pretty URL: validation, missing auth", async () => {
    const pretty = await api(`${NS}/events?per_page=abc`);
    const plain = await api(`/?rest_route=/tribe/events/v1/events&per_page=abc`);
    expect(plain.status).toBe(400);
    expect(plain.body).toEqual(pretty.body);
    const create = await api(`/?rest_route=/tribe/events/v1/events`, {
      json: { title: "T", start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" },
    });
    expect(create.status).toBe(401);
    expect(create.body.code).toBe("rest_forbidden");
  });

  it("the indexes take only GET: other methods are 404 rest_no_route, as in WordPress", async () => {
    for (const path of ["/wp-json/", "/wp-json/wp/v2", "/?rest_route=/"]) {
      const res = await api(path, { method: "POST", json: {}, headers: ADMIN });
      expect(res.status, path).toBe(404);
      expect(res.body.code, path).toBe("rest_no_route");
    }
  });
});
