/**
 * WordPress's "Authorize Application" page (contract §3.2): a client sends the signed-in user to
 * `wp-admin/authorize-application.php`; approving issues an application password and sends it to
 * the client's `success_url`, rejecting goes to `reject_url` with `success=false`; nothing happens
 * without the session's nonce, from another site, or for redirect URLs WordPress refuses.
 */
import { describe, expect, it } from "vitest";
import { api } from "../support/api";
import { formNonce, postAuthorize, signIn } from "./browser";

const PAGE = "/wp-admin/authorize-application.php";
const SUCCESS = "https://app.example/cb?state=42";
const q = (params: Record<string, string>) => `${PAGE}?${new URLSearchParams(params)}`;

/** The admin's application passwords, by name. */
async function passwordNames(): Promise<string[]> {
  const { call } = await signIn("admin", "test admin password");
  const res = await call("/wp-json/wp/v2/users/me/application-passwords");
  return res.body.map((p: { name: string }) => p.name);
}

describe("authorize-application.php (contract §3.2)", () => {
  it("sends a signed-out browser to sign-in, which comes back to the same request", async () => {
    const path = q({ app_name: "Sync", success_url: SUCCESS });
    for (const prefix of ["", "/de"]) {
      const res = await api(`${prefix}${path}`);
      expect(res.status).toBe(302);
      const to = new URL(res.headers.get("location")!);
      expect(to.pathname).toBe(`${prefix}/wp-login.php`);
      expect(to.searchParams.get("redirect_to")).toBe(`http://calendar.test${prefix}${path}`);
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("shows the signed-in user the request, its name as text, and where each answer goes", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const res = await api(q({ app_name: "<script>x()</script>", success_url: SUCCESS }), {
      headers: { cookie },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.text).not.toContain("<script>x()");
    expect(res.text).toContain("identifying itself as &lt;script&gt;x()&lt;/script&gt; access");
    expect(res.text).toContain(
      "You will be sent to https://app.example/cb?state=42&amp;user_login=admin&amp;password=%5B------%5D",
    );
    expect(res.text).toContain(
      "You will be sent to https://app.example/cb?state=42&amp;success=false",
    );
    expect(formNonce(res)).toMatch(/^[0-9a-f]{20}$/);
  });

  it("approving issues a password that works, and hands it to the client's success_url", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const appId = "0f8e6b1c-3a52-4d1e-9b7a-2c4d6e8f0a1b";
    const page = await api(q({ app_name: "Phone app", app_id: appId, success_url: SUCCESS }), {
      headers: { cookie },
    });
    const res = await postAuthorize(cookie, {
      _wpnonce: formNonce(page),
      app_name: "Phone app",
      app_id: appId,
      success_url: SUCCESS,
      reject_url: SUCCESS,
      approve: "Yes",
    });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(`${to.origin}${to.pathname}`).toBe("https://app.example/cb");
    expect(to.searchParams.get("state")).toBe("42");
    expect(to.searchParams.get("site_url")).toBe("http://calendar.test");
    expect(to.searchParams.get("user_login")).toBe("admin");
    const password = to.searchParams.get("password")!;
    expect(password).toMatch(/^[A-Za-z0-9]{24}$/);
    const basic = `Basic ${btoa(`admin:${password}`)}`;
    const me = await api("/wp-json/wp/v2/users/me", { headers: { authorization: basic } });
    expect(me.status).toBe(200);
    expect(me.body.slug).toBe("admin");
    const { call } = await signIn("admin", "test admin password");
    const listed = await call("/wp-json/wp/v2/users/me/application-passwords");
    expect(listed.body).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: "Phone app", app_id: appId })]),
    );
  });

  it("without a success_url the new password is shown once on the page, in the page's language", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const page = await api(`/de${q({ app_name: "Desktop" })}`, { headers: { cookie } });
    expect(page.text).toContain("Du erhältst ein Passwort");
    const res = await postAuthorize(
      cookie,
      { _wpnonce: formNonce(page), app_name: "Desktop", approve: "Ja" },
      {},
      "/de",
    );
    expect(res.status).toBe(200);
    const shown = /Dein neues Passwort für Desktop lautet: ([A-Za-z0-9 ]+)</.exec(res.text)?.[1];
    expect(shown).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    const basic = `Basic ${btoa(`admin:${shown}`)}`;
    expect(
      (await api("/wp-json/wp/v2/users/me", { headers: { authorization: basic } })).status,
    ).toBe(200);
  });

  it("rejecting goes to reject_url with success=false and issues nothing", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const page = await api(q({ app_name: "Nope", success_url: SUCCESS }), { headers: { cookie } });
    const res = await postAuthorize(cookie, {
      _wpnonce: formNonce(page),
      app_name: "Nope",
      success_url: SUCCESS,
      reject_url: SUCCESS,
      reject: "No",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://app.example/cb?state=42&success=false");
    expect(await passwordNames()).not.toContain("Nope");
  });

  it("a duplicate name is said on the form again, and nothing is issued", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const page = await api(q({ app_name: "Twice" }), { headers: { cookie } });
    const fields = { _wpnonce: formNonce(page), app_name: "Twice", approve: "Yes" };
    expect((await postAuthorize(cookie, fields)).status).toBe(200);
    const again = await postAuthorize(cookie, fields);
    expect(again.status).toBe(200);
    expect(again.text).toContain("Each application name should be unique.");
    expect(again.text).not.toMatch(/[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}/);
    expect((await passwordNames()).filter((n) => n === "Twice")).toHaveLength(1);
  });

  it("refuses redirect URLs WordPress refuses, on the page and on the form post", async () => {
    const { cookie } = await signIn("admin", "test admin password");
    const cases: Array<[Record<string, string>, string]> = [
      [
        { success_url: "http://app.example/cb" },
        "The URL must be served over a secure connection.",
      ],
      [{ reject_url: "javascript:alert(1)" }, "Invalid URL format."],
      [{ success_url: "data:text/html,x" }, "Invalid URL format."],
      [{ success_url: "//evil.example/cb" }, "Invalid URL format."],
      [{ app_id: "not-a-uuid" }, "The application ID must be a UUID."],
    ];
    for (const [params, message] of cases) {
      const res = await api(q({ app_name: "Bad", ...params }), { headers: { cookie } });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.text).toContain(`The Authorize Application request is not allowed. ${message}`);
      expect(res.text).not.toContain('name="_wpnonce"');
      expect(res.text).not.toContain("javascript:");
    }
    // The form post is checked again: a tampered success_url issues nothing.
    const page = await api(q({ app_name: "Tampered" }), { headers: { cookie } });
    const res = await postAuthorize(cookie, {
      _wpnonce: formNonce(page),
      app_name: "Tampered",
      success_url: "http://evil.example/steal",
      approve: "Yes",
    });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await passwordNames()).not.toContain("Tampered");
    // Plain HTTP to this machine's loopback address is allowed, as WordPress allows it.
    const local = await api(q({ success_url: "http://127.0.0.1:4000/cb" }), {
      headers: { cookie },
    });
    expect(local.status).toBe(200);
  });

  it("issues nothing without the session's nonce, with another session's, or from another site", async () => {
    const mine = await signIn("admin", "test admin password");
    const other = await signIn("admin", "test admin password");
    const page = await api(q({ app_name: "Forged" }), { headers: { cookie: mine.cookie } });
    const nonce = formNonce(page);
    const attempts = [
      postAuthorize(mine.cookie, { app_name: "Forged", approve: "Yes" }),
      postAuthorize(other.cookie, { _wpnonce: nonce, app_name: "Forged", approve: "Yes" }),
      postAuthorize(mine.cookie, { _wpnonce: mine.nonce, app_name: "Forged", approve: "Yes" }),
      postAuthorize(
        mine.cookie,
        { _wpnonce: nonce, app_name: "Forged", approve: "Yes" },
        { origin: "https://evil.example" },
      ),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.text).toContain("The link you followed has expired.");
    }
    // Signed out, the post goes to sign-in.
    const anon = await postAuthorize("", { _wpnonce: nonce, app_name: "Forged", approve: "Yes" });
    expect(anon.status).toBe(302);
    expect(await passwordNames()).not.toContain("Forged");
  });
});
