/**
 * Browser sign-in over HTTP against `npm start` (contract §3.1): the form posted as a browser posts
 * it, the cookie it sets on 127.0.0.1 (no `Secure`), the nonce from `admin-ajax.php`, a write with
 * cookie and nonce, the same cookie without the nonce changing nothing, and sign-out.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, NS, ORIGIN, send, show } from "./support/http";

describe("signing in with a browser", () => {
  it("sign in, write with cookie + nonce, refuse the cookie alone, sign out", async () => {
    const page = await fetch(`${ORIGIN}/de/wp-login.php`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('name="pwd"');

    const signedIn = await fetch(`${ORIGIN}/wp-login.php`, {
      method: "POST",
      redirect: "manual",
      body: new URLSearchParams({ log: "admin", pwd: ADMIN!.password, redirect_to: "/wp-admin/" }),
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/wp-admin/`);
    const setCookie = signedIn.headers.get("set-cookie")!;
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).not.toContain("Secure");
    const cookie = setCookie.split(";")[0];

    const nonceRes = await fetch(`${ORIGIN}/wp-admin/admin-ajax.php?action=rest-nonce`, {
      headers: { cookie },
    });
    expect(nonceRes.status).toBe(200);
    const nonce = await nonceRes.text();

    const event = {
      title: "Signed in by cookie",
      start_date: "2030-05-06 19:00:00",
      end_date: "2030-05-06 21:00:00",
    };
    const written = await send("POST", `${NS}/events`, {
      json: event,
      headers: { cookie, "x-wp-nonce": nonce },
    });
    expect(written.status, show(written)).toBe(201);
    expect(written.headers.get("x-wp-nonce")).toBeTruthy();

    const forged = await send("POST", `${NS}/events`, {
      json: { ...event, title: "Forged" },
      headers: { cookie },
    });
    expect(forged.status, show(forged)).toBe(401);
    const found = await send(
      "GET",
      `${NS}/events?search=Forged&start_date=2030-01-01&status=publish,draft,pending`,
      {
        auth: ADMIN,
      },
    );
    expect(found.body.events ?? []).toHaveLength(0);

    const out = await fetch(`${ORIGIN}/wp-login.php?action=logout&_wpnonce=${nonce}`, {
      headers: { cookie },
      redirect: "manual",
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe(`${ORIGIN}/wp-login.php?loggedout=true`);
    const after = await send("GET", "/wp-json/wp/v2/users/me", {
      headers: { cookie, "x-wp-nonce": nonce },
    });
    expect(after.status).toBe(403);
    expect(after.body.code).toBe("rest_cookie_invalid_nonce");
  });
});
