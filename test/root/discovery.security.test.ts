/**
 * Discovery and security (contract §7.4): the REST index says the same to everyone, `rest_route`
 * cannot lead outside the API or around its checks, and the authorization page prints nothing a
 * caller controls unescaped and links back only to http(s) URLs.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";

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

  it("the authorization page escapes what it prints and links back only to http(s) URLs", async () => {
    const hostile = await api(
      `/wp-admin/authorize-application.php?app_name=${encodeURIComponent("<script>alert(1)</script>")}&reject_url=${encodeURIComponent("https://app.example/cb?x=1")}`,
    );
    expect(hostile.status).toBe(200);
    expect(hostile.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(hostile.text).not.toContain("<script>");
    expect(hostile.text).toContain("&lt;script&gt;");
    expect(hostile.text).toContain('href="https://app.example/cb?x=1&amp;success=false"');
    for (const reject of ["javascript:alert(1)", "data:text/html,x", "//evil.example/"]) {
      const res = await api(
        `/de/wp-admin/authorize-application.php?reject_url=${encodeURIComponent(reject)}`,
      );
      expect(res.status).toBe(200);
      expect(res.text).toContain("Anwendungspasswörter");
      expect(res.text).not.toContain("javascript:");
      expect(res.text).not.toContain("evil.example");
      expect(res.text).not.toContain("data:text");
    }
  });

  it("the authorization page cannot be poisoned with repeated parameters and is never cached", async () => {
    const evil = encodeURIComponent("https://evil.example/steal");
    const good = encodeURIComponent("https://good.example/cb");
    const path = "/wp-admin/authorize-application.php";
    // The attacker's URL: repeated keys, the last of each wins (PHP), as in the cache key.
    const poisoned = await api(
      `${path}?app_name=Evil&reject_url=${evil}&app_name=Good&reject_url=${good}`,
    );
    expect(poisoned.text).toContain("Good");
    expect(poisoned.text).not.toContain("Evil");
    expect(poisoned.text).not.toContain("evil.example");
    expect(poisoned.headers.get("cache-control")).toBe("no-store");
    expect(poisoned.headers.get("etag")).toBeNull();
    // The victim's URL answers from its own parameters, twice (no cached page in between).
    for (let i = 0; i < 2; i++) {
      const victim = await api(`${path}?app_name=Good&reject_url=${good}`);
      expect(victim.status).toBe(200);
      expect(victim.text).toContain('href="https://good.example/cb?success=false"');
      expect(victim.text).not.toContain("evil.example");
      expect(victim.headers.get("x-cache")).toBeNull();
      expect(victim.headers.get("cache-control")).toBe("no-store");
    }
  });
});
