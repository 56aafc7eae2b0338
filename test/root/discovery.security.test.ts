/**
 * Discovery and security (contract §7.4): the REST index says the same to everyone, `rest_route`
 * cannot lead outside the API or around its checks, and the authorization page prints nothing a
 * caller controls unescaped and links back only to http(s) URLs.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";
import { signIn } from "../users/browser";

describe("discovery security", () => {
  it("the REST index is the same for anonymous callers, subscribers and administrators", async () => {
    const subscriber = await seedUser("subscriber");
    const bodies = await Promise.all(
      [{}, subscriber.headers, ADMIN].map(
        async (headers) => (await api("/wp-json/", { headers })).text,
      ),
    );
    // Defaults such as `end_date` are computed per request, to the second.
    const stamps = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/g;
    expect(new Set(bodies.map((b) => b.replace(stamps, "(now)"))).size).toBe(1);
  });

  it("rest_route keeps every permission check: drafts stay hidden, writes need rights", async () => {
    const draft = await seedEvent({ title: "Hidden draft", start: day(1), status: "draft" });
    const anonymous = await api(`/?rest_route=/tribe/events/v1/events/${draft}`);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.code).toBe("event-not-accessible");
    const subscriber = await seedUser("subscriber");
    const write = await api(`/?rest_route=/tribe/events/v1/events/${draft}`, {
      method: "DELETE",
      headers: subscriber.headers,
    });
    expect(write.status).toBe(403);
    const users = await api(`/?rest_route=/wp/v2/users`);
    expect(users.status).toBe(401);
  });

  it("rest_route writes from other origins follow CORS_WRITE_ORIGINS like pretty URLs (the null origin never writes)", async () => {
    const res = await api("/?rest_route=/tribe/events/v1/events", {
      json: { title: "T", start_date: "2030-01-01 10:00", end_date: "2030-01-01 11:00" },
      headers: { ...ADMIN, origin: "null" },
    });
    expect(res.status).toBe(403);
  });

  it("the authorization page is never cached and cannot be poisoned with repeated parameters", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const evil = encodeURIComponent("https://evil.example/steal");
    const good = encodeURIComponent("https://good.example/cb");
    const path = "/wp-admin/authorize-application.php";
    // The attacker's URL: repeated keys, the last of each wins (PHP), as in the cache key.
    const poisoned = await api(
      `${path}?app_name=Evil&success_url=${evil}&app_name=Good&success_url=${good}`,
      { headers: { cookie } },
    );
    expect(poisoned.text).toContain("Good");
    expect(poisoned.text).not.toContain("Evil");
    expect(poisoned.text).not.toContain("evil.example");
    expect(poisoned.headers.get("cache-control")).toBe("no-store");
    expect(poisoned.headers.get("etag")).toBeNull();
    // Signed out it is a redirect to sign-in, never a cached page, twice.
    for (let i = 0; i < 2; i++) {
      const anonymous = await api(`${path}?app_name=Good&success_url=${good}`);
      expect(anonymous.status).toBe(302);
      expect(anonymous.headers.get("x-cache")).toBeNull();
      expect(anonymous.headers.get("cache-control")).toBe("no-store");
    }
  });
});
