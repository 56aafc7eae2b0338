/**
 * Cookie authentication of the REST API (contract §3.1), as WordPress's `rest_cookie_check_errors`:
 * the session cookie counts only with a nonce of that session, so a cross-site form or `fetch`
 * changes nothing (CSRF); roles are the API's; ended, expired and deleted sessions are refused; no
 * cache serves or keeps a cookie-authenticated answer.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { seedEvent } from "../support/factories";
import { createUser, restNonce, signIn } from "./browser";

const EVENT = {
  title: "Choir",
  start_date: "2031-03-04 19:00:00",
  end_date: "2031-03-04 21:00:00",
};
const eventCount = async () =>
  ((await env.DB.prepare("SELECT count(*) AS n FROM events").first()) as { n: number }).n;
const sessionCount = async (userId: number) =>
  (
    (await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(userId)
      .first()) as { n: number }
  ).n;

describe("the REST nonce (admin-ajax.php?action=rest-nonce)", () => {
  it("is 0 with status 400 when not signed in, and the session's nonce when signed in; never cached", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { cookie: "wordpress_logged_in=garbage" },
      { cookie: `wordpress_logged_in=${"A".repeat(43)}` },
    ]) {
      const res = await api("/wp-admin/admin-ajax.php?action=rest-nonce", { headers });
      expect(res.status).toBe(400);
      expect(res.text).toBe("0");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const browser = await signIn("admin", "test admin password");
    const res = await restNonce(browser.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.text).toMatch(/^[0-9a-f]{20}$/);
    for (const action of ["", "heartbeat"])
      expect(
        (
          await api(`/wp-admin/admin-ajax.php?action=${action}`, {
            headers: { cookie: browser.cookie },
          })
        ).status,
      ).toBe(400);
  });
});

describe("a REST request with the session cookie", () => {
  it("with the nonce (header or _wpnonce) is the user's, as the API's roles allow, and gets a fresh nonce back", async () => {
    await createUser("ed", "editor", "ed's password");
    await createUser("cora", "contributor", "cora's password");
    const editor = await signIn("ed", "ed's password");
    const published = await editor.call(`${NS}/events`, { json: { ...EVENT, status: "publish" } });
    expect(published.status, published.text).toBe(201);
    expect(published.body.status).toBe("publish");
    expect(published.headers.get("x-wp-nonce")).toMatch(/^[0-9a-f]{20}$/);
    expect(published.headers.get("cache-control")).toContain("no-store");
    const viaQuery = await editor.call(`${NS}/events`, { json: { ...EVENT, title: "Q" } }, "query");
    expect(viaQuery.status).toBe(201);

    const contributor = await signIn("cora", "cora's password");
    const submitted = await contributor.call(`${NS}/events`, {
      json: { ...EVENT, status: "publish" },
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.status).toBe("pending");
    const deleted = await contributor.call(`${NS}/events/${published.body.id}`, {
      method: "DELETE",
    });
    expect(deleted.status).toBe(403);
  });

  it("without a nonce is anonymous: a cross-site POST changes nothing (CSRF)", async () => {
    const browser = await signIn("admin", "test admin password");
    const forged = await browser.call(`${NS}/events`, { json: EVENT }, "none");
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe("rest_forbidden");
    const form = await api(`${NS}/events`, {
      form: EVENT,
      headers: { cookie: browser.cookie },
    });
    expect(form.status).toBe(401);
    expect(await eventCount()).toBe(0);
    expect((await browser.call("/wp-json/wp/v2/users/me", {}, "none")).status).toBe(401);
  });

  it("with a nonce of another session, or with no session, is 403 rest_cookie_invalid_nonce and changes nothing", async () => {
    const mine = await signIn("admin", "test admin password");
    await createUser("other", "editor", "other's password");
    const other = await signIn("other", "other's password");
    for (const headers of [
      { cookie: mine.cookie, "x-wp-nonce": other.nonce } as Record<string, string>,
      { cookie: mine.cookie, "x-wp-nonce": "0123456789abcdef0123" },
      { "x-wp-nonce": mine.nonce },
    ]) {
      const res = await api(`${NS}/events`, { json: EVENT, headers });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({
        code: "rest_cookie_invalid_nonce",
        message: "Cookie check failed",
        data: { status: 403 },
      });
    }
    const de = await api(`/de${NS}/events`, {
      headers: { cookie: mine.cookie, "x-wp-nonce": other.nonce },
    });
    expect(de.body.message).toBe("Cookie-Prüfung fehlgeschlagen");
    // `_wpnonce` comes first, as in WordPress: a good header does not save a bad parameter.
    const both = await api(`${NS}/events?_wpnonce=${other.nonce}`, {
      headers: { cookie: mine.cookie, "x-wp-nonce": mine.nonce },
    });
    expect(both.status).toBe(403);
    expect(await eventCount()).toBe(0);
  });

  it("reads _wpnonce from a form body, where WordPress's $_REQUEST has it, before the query's", async () => {
    const browser = await signIn("admin", "test admin password");
    const other = await signIn("admin", "test admin password");
    const form = { title: "Form", start_date: EVENT.start_date, end_date: EVENT.end_date };
    const made = await api(`${NS}/events`, {
      form: { ...form, _wpnonce: browser.nonce },
      headers: { cookie: browser.cookie },
    });
    expect(made.status, made.text).toBe(201);
    expect(made.body.title).toBe("Form");
    // The body's nonce wins over the query's (a good one in the query does not save a bad body).
    const bad = await api(`${NS}/events?_wpnonce=${browser.nonce}`, {
      form: { ...form, _wpnonce: other.nonce },
      headers: { cookie: browser.cookie },
    });
    expect(bad.status).toBe(403);
    expect(bad.body.code).toBe("rest_cookie_invalid_nonce");
    // A multipart body too.
    const body = new FormData();
    for (const [k, v] of Object.entries({ ...form, title: "Multipart", _wpnonce: browser.nonce }))
      body.append(k, v);
    const multi = await api(`${NS}/events`, { body, headers: { cookie: browser.cookie } });
    expect(multi.status, multi.text).toBe(201);
    expect(await eventCount()).toBe(2);
  });

  it("Authorization wins over the cookie and its nonce", async () => {
    const browser = await signIn("admin", "test admin password");
    const res = await api(`${NS}/events`, {
      json: EVENT,
      headers: { ...ADMIN, cookie: browser.cookie, "x-wp-nonce": "bad" },
    });
    expect(res.status).toBe(201);
  });

  it("is refused once the session expired, the user was deleted or changed their password elsewhere", async () => {
    const expired = await signIn("admin", "test admin password");
    await env.DB.prepare("UPDATE sessions SET expires_ms = ?")
      .bind(Date.now() - 1)
      .run();
    expect((await expired.call("/wp-json/wp/v2/users/me")).body.code).toBe(
      "rest_cookie_invalid_nonce",
    );
    expect((await restNonce(expired.cookie)).text).toBe("0");

    const id = await createUser("gone", "editor", "gone's password");
    const gone = await signIn("gone", "gone's password");
    expect((await gone.call("/wp-json/wp/v2/users/me")).status).toBe(200);
    await api(`/wp-json/wp/v2/users/${id}?force=true&reassign=1`, {
      method: "DELETE",
      headers: ADMIN,
    });
    expect((await gone.call("/wp-json/wp/v2/users/me")).status).toBe(403);

    await createUser("pat", "author", "old password");
    const laptop = await signIn("pat", "old password");
    const phone = await signIn("pat", "old password");
    const changed = await laptop.call("/wp-json/wp/v2/users/me", {
      json: { password: "new password" },
    });
    expect(changed.status).toBe(200);
    expect((await phone.call("/wp-json/wp/v2/users/me")).status).toBe(403);
    expect((await laptop.call("/wp-json/wp/v2/users/me")).status).toBe(200);
    expect(await sessionCount(changed.body.id)).toBe(1);
    // An administrator's change ends every session of the user.
    const me = (await laptop.call("/wp-json/wp/v2/users/me")).body.id;
    await api(`/wp-json/wp/v2/users/${me}`, { json: { password: "newer" }, headers: ADMIN });
    expect((await laptop.call("/wp-json/wp/v2/users/me")).status).toBe(403);
  });
});

describe("the read cache", () => {
  it("never serves a cookie-authenticated read, and never keeps one", async () => {
    await seedEvent({ title: "Public", start: "2027-03-04 19:00:00" });
    await seedEvent({ title: "Draft", start: "2027-03-05 19:00:00", status: "draft" });
    const browser = await signIn("admin", "test admin password");
    const url = `${NS}/events?start_date=2027-01-01`;
    // First signed in (nothing kept), then anonymous: a miss, then a hit.
    for (const how of ["header", "query"] as const) {
      const signedIn = await browser.call(url, {}, how);
      expect(signedIn.headers.get("x-cache")).toBeNull();
      expect(signedIn.headers.get("cache-control")).toContain("private");
      expect(signedIn.headers.get("allow")).toContain("POST");
    }
    expect((await api(url)).headers.get("x-cache")).toBe("MISS");
    const hit = await api(url, { headers: { cookie: browser.cookie } });
    expect(hit.headers.get("x-cache")).toBe("HIT");
    // With the nonce, the cached anonymous answer is not served.
    for (const how of ["header", "query"] as const) {
      const signedIn = await browser.call(url, {}, how);
      expect(signedIn.headers.get("x-cache")).toBeNull();
      expect(signedIn.headers.get("allow")).toContain("POST");
    }
    // Nor may a browser's own cache: anonymous answers vary by the nonce header.
    expect((await api(url)).headers.get("vary")).toContain("X-WP-Nonce");
    const drafts = await browser.call(`${NS}/events?status=draft&start_date=2027-01-01`);
    expect(drafts.body.events.map((e: { title: string }) => e.title)).toEqual(["Draft"]);
  });
});
