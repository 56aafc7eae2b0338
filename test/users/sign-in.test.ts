/**
 * Signing in and out in a browser (contract §3.1): the `wp-login.php` form in both languages, each
 * kind of credential, the cookie's attributes, refusals that tell nothing, the rate limit,
 * `redirect_to` kept on this site, sign-out, and input no sign-in page expects.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LIMIT } from "../../src/http/rate-limit";
import { api, NS } from "../support/api";
import { seedUser } from "../support/factories";
import { inOneWindow } from "../support/rate-window";
import { cookieToken, createUser, fetchAt, postSignIn, restNonce, signIn } from "./browser";

const CSP =
  "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const sessionRows = async () =>
  (await env.DB.prepare("SELECT digest, user_id, created_ms, expires_ms FROM sessions").all())
    .results as Array<{
    digest: string;
    user_id: number;
    created_ms: number;
    expires_ms: number;
  }>;

describe("the sign-in page", () => {
  it("is WordPress's form, with labels, a strict CSP, no script and no inline style, never cached", async () => {
    const res = await api("/wp-login.php");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(res.headers.get("cache-control")).toBe("no-store");
    for (const field of [
      'name="log"',
      'name="pwd"',
      'name="redirect_to"',
      'name="wp-submit"',
      'name="rememberme"',
    ])
      expect(res.text).toContain(field);
    expect(res.text).toContain('<label for="user_login">Username or Email Address</label>');
    expect(res.text).toContain('<label for="user_pass">Password</label>');
    expect(res.text).not.toMatch(/<script|\sstyle=|\son\w+=/i);
    const css = await api("/wp-includes/css/login.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
  });

  it("speaks German under /de/, and posts back there", async () => {
    const res = await api("/de/wp-login.php");
    expect(res.status).toBe(200);
    expect(res.text).toContain('<html lang="de">');
    expect(res.text).toContain("Benutzername oder E-Mail-Adresse");
    expect(res.text).toContain('value="Anmelden"');
    expect(res.text).toContain('action="wp-login.php"');
    const failed = await postSignIn({ log: "nobody", pwd: "x" }, {}, "/de");
    expect(failed.text).toContain(
      "Ungültiger Benutzername, ungültige E-Mail-Adresse oder falsches Passwort.",
    );
  });
});

describe("signing in", () => {
  it("with a username and the login password: a 302 to /wp-admin/ and a session cookie kept only as a digest", async () => {
    const id = await createUser("alice", "editor", "correct horse battery");
    const res = await postSignIn({ log: "alice", pwd: "correct horse battery" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("http://calendar.test/wp-admin/");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/^wordpress_logged_in=[A-Za-z0-9_-]{43}; /);
    for (const attribute of ["Path=/", "HttpOnly", "SameSite=Strict", "Secure"])
      expect(cookie.split("; ")).toContain(attribute);
    // Without "remember me" the cookie ends with the browser session; D1 keeps it 2 days.
    expect(cookie).not.toContain("Expires");
    const rows = await sessionRows();
    expect(rows).toHaveLength(1);
    expect(rows[0].user_id).toBe(id);
    expect(rows[0].digest).not.toContain(cookieToken(res));
    expect(rows[0].expires_ms - rows[0].created_ms).toBe(2 * 86_400_000);
    const me = await (await signIn("alice", "correct horse battery")).call(
      "/wp-json/wp/v2/users/me",
    );
    expect(me.body.username).toBe("alice");
  });

  it("with the e-mail address, any case; remember me keeps the cookie 14 days", async () => {
    await createUser("bob", "author", "pw of bob");
    const res = await postSignIn({
      log: "BOB@example.org",
      pwd: "pw of bob",
      rememberme: "forever",
    });
    expect(res.status).toBe(302);
    const expires = /Expires=([^;]+)/.exec(res.headers.get("set-cookie")!)![1];
    expect(Date.parse(expires) - Date.now()).toBeGreaterThan(13.9 * 86_400_000);
    const [row] = await sessionRows();
    expect(row.expires_ms - row.created_ms).toBe(14 * 86_400_000);
  });

  it("as admin with ADMIN_APP_PASSWORD, and with an application password", async () => {
    const admin = await signIn("admin", "test admin password");
    expect((await admin.call("/wp-json/wp/v2/users/me")).body.id).toBe(1);
    await seedUser("author", "carol");
    const carol = await signIn("carol", "pw-carol-0123456789");
    expect((await carol.call("/wp-json/wp/v2/users/me")).body.username).toBe("carol");
  });

  it("sets Secure on the cookie everywhere but on localhost", async () => {
    for (const [origin, secure] of [
      ["http://127.0.0.1:8787", false],
      ["http://localhost:8787", false],
      ["http://[::1]:8787", false],
      ["https://events.example.org", true],
    ] as const) {
      const res = await fetchAt(origin, "/wp-login.php", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "log=admin&pwd=test+admin+password",
      });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`${origin}/wp-admin/`);
      expect(res.headers.get("set-cookie")!.split("; ").includes("Secure"), origin).toBe(secure);
    }
  });

  it("refuses an unknown user and a wrong password with the same page, no cookie, the password never echoed", async () => {
    await createUser("dave", "editor", "the right one");
    const unknown = await postSignIn({ log: "nobody", pwd: "s3cret-guess" });
    const wrong = await postSignIn({
      log: "nobody".replace("nobody", "dave"),
      pwd: "s3cret-guess",
    });
    for (const res of [unknown, wrong]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.text).toContain("Invalid username, email address or incorrect password.");
      expect(res.text).not.toContain("s3cret-guess");
    }
    expect(unknown.text.replace("nobody", "dave")).toBe(wrong.text);
    expect(await sessionRows()).toHaveLength(0);
  });

  it("names empty fields, and shows the username as text", async () => {
    const res = await postSignIn({ log: '<img src=x onerror="alert(1)">', pwd: "" });
    expect(res.text).toContain("The password field is empty.");
    expect(res.text).toContain('value="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;"');
    expect((await postSignIn({ log: "", pwd: "x" })).text).toContain(
      "The username field is empty.",
    );
  });

  it(`the ${LIMIT + 1}th failure of a client is a 429 page with Retry-After, then even the right password`, async () => {
    // The binding counts per wall-clock window and its counts outlive a test: a fresh client IP,
    // and once more if the window turned while the attempt ran (test/support/rate-window.ts).
    await inOneWindow(async (ip) => {
      const client = { "cf-connecting-ip": ip };
      for (let i = 0; i < LIMIT; i++)
        expect((await postSignIn({ log: "admin", pwd: `no ${i}` }, client)).status).toBe(200);
      const blocked = await postSignIn({ log: "admin", pwd: "no more" }, client);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(blocked.text).toContain("Too many failed authentication attempts.");
      const right = await postSignIn({ log: "admin", pwd: "test admin password" }, client);
      expect(right.status).toBe(429);
      expect(right.headers.get("set-cookie")).toBeNull();
      // Another client is not held up.
      expect((await postSignIn({ log: "admin", pwd: "test admin password" })).status).toBe(302);
    });
  });

  it("signs no one in from a form on another site (login CSRF), and does from its own", async () => {
    const form = { log: "admin", pwd: "test admin password" };
    const res = await postSignIn(form, { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(res.text).toContain("The form was sent from another site.");
    // A sandboxed frame's opaque origin is refused before any route (contract §6).
    const opaque = await postSignIn(form, { origin: "null" });
    expect(opaque.status).toBe(403);
    expect(opaque.headers.get("set-cookie")).toBeNull();
    const de = await postSignIn(form, { origin: "https://evil.example" }, "/de");
    expect(de.text).toContain("Das Formular wurde von einer anderen Website gesendet.");
    expect(await sessionRows()).toHaveLength(0);
    expect((await postSignIn(form, { origin: "http://calendar.test" })).status).toBe(302);
  });

  it("follows redirect_to on this site only", async () => {
    const go = async (redirect_to: string) =>
      (await postSignIn({ log: "admin", pwd: "test admin password", redirect_to })).headers.get(
        "location",
      );
    expect(await go("/wp-admin/edit.php?post_type=tribe_events")).toBe(
      "http://calendar.test/wp-admin/edit.php?post_type=tribe_events",
    );
    expect(await go("http://calendar.test/de/wp-admin/")).toBe("http://calendar.test/de/wp-admin/");
    for (const away of [
      "https://evil.test/",
      "//evil.test/x",
      "/\\evil.test",
      "\\\\evil.test",
      "javascript:alert(1)",
      "http://calendar.test.evil.test/",
      " /\t/evil.test",
    ])
      expect(await go(away), away).toBe("http://calendar.test/wp-admin/");
  });

  it("answers input no form sends without a 5xx", async () => {
    const bad: Array<[string, BodyInit]> = [
      ["application/x-www-form-urlencoded", new Uint8Array([0x6c, 0x6f, 0x67, 0x3d, 0xff, 0xfe])],
      ["application/x-www-form-urlencoded", "log%5B%5D=admin&pwd%5Bx%5D=1"],
      ["application/json", "{"],
      ["multipart/form-data; boundary=x", "--x\r\nnonsense"],
      ["text/plain", "log=admin&pwd=test admin password"],
      ["application/x-www-form-urlencoded", `log=${"a".repeat(100_000)}&pwd=x`],
    ];
    for (const [type, body] of bad) {
      const res = await api("/wp-login.php", {
        method: "POST",
        headers: { "content-type": type },
        body,
      });
      expect(res.status, `${type}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const huge = { cookie: `wordpress_logged_in=${"x".repeat(8000)}`, "x-wp-nonce": "0123456789" };
    expect((await api(`${NS}/events`, { headers: huge })).status).toBe(403);
    expect(
      (await api("/wp-admin/admin-ajax.php?action=rest-nonce", { headers: huge })).status,
    ).toBe(400);
    expect((await api("/wp-login.php?action=logout", { headers: huge })).status).toBe(302);
  });
});

describe("signing out", () => {
  it("with the nonce: the session ends, the cookie expires, and the old cookie and nonce no longer work", async () => {
    const browser = await signIn("admin", "test admin password");
    const out = await api(`/wp-login.php?action=logout&_wpnonce=${browser.nonce}`, {
      headers: { cookie: browser.cookie },
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("http://calendar.test/wp-login.php?loggedout=true");
    expect(out.headers.get("set-cookie")).toMatch(/^wordpress_logged_in=; .*Max-Age=0/);
    expect(await sessionRows()).toHaveLength(0);
    const after = await browser.call("/wp-json/wp/v2/users/me");
    expect(after.status).toBe(403);
    expect(after.body.code).toBe("rest_cookie_invalid_nonce");
    expect((await restNonce(browser.cookie)).text).toBe("0");
    expect((await api("/wp-login.php?loggedout=true")).text).toContain("You are now logged out.");
  });

  it("without a valid nonce only asks (403), with a link that signs out; a POST with the nonce signs out too", async () => {
    const browser = await signIn("admin", "test admin password");
    const asked = await api("/de/wp-login.php?action=logout&_wpnonce=forged", {
      headers: { cookie: browser.cookie },
    });
    expect(asked.status).toBe(403);
    expect(asked.text).toContain("Möchtest du dich wirklich abmelden?");
    expect(asked.headers.get("set-cookie")).toBeNull();
    expect(await sessionRows()).toHaveLength(1);
    const href = /href="(wp-login\.php\?action=logout&amp;_wpnonce=[0-9a-f]+)"/.exec(
      asked.text,
    )![1];
    const out = await api(`/de/${href.replace("&amp;", "&")}`, {
      headers: { cookie: browser.cookie },
    });
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("http://calendar.test/de/wp-login.php?loggedout=true");
    expect(await sessionRows()).toHaveLength(0);

    const again = await signIn("admin", "test admin password");
    const posted = await api("/wp-login.php?action=logout", {
      form: { _wpnonce: again.nonce },
      headers: { cookie: again.cookie },
    });
    expect(posted.status).toBe(302);
    expect(await sessionRows()).toHaveLength(0);
  });
});
