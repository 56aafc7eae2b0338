/**
 * The calendar editor as the worker serves it (contract §7.11): the shell at `/wp-admin/` and
 * `/{lang}/wp-admin/`, its static files under `/_editor/`, the headers that keep it safe. What it
 * does in a browser (sign-in, events, XSS, CSRF, accessibility) is `npm run test:editor`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearStringsCache, stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { api } from "../support/api";

/** The JSON data block of a shell. */
const configOf = (html: string) => {
  const m = /<script type="application\/json" id="editor-config">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error("no #editor-config block");
  return JSON.parse(m[1]);
};

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' https: data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe("the calendar editor's shell (contract §7.11)", () => {
  it("is served at /wp-admin/ in the default language and at /{lang}/wp-admin/ in each language, with that language's strings and API root", async () => {
    for (const [path, lang, strings, apiRoot] of [
      ["/wp-admin/", "en", en, "/wp-json/"],
      ["/en/wp-admin/", "en", en, "/en/wp-json/"],
      ["/de/wp-admin/", "de", de, "/de/wp-json/"],
    ] as const) {
      const res = await api(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=utf-8");
      expect(res.text, path).toContain(`<html lang="${lang}">`);
      expect(res.text, path).toContain(`<title>${strings.editor.title}</title>`);
      const config = configOf(res.text);
      expect(config.lang).toBe(lang);
      expect(config.apiRoot).toBe(apiRoot);
      expect(config.editorPath).toBe(path);
      expect(config.loginPath).toBe(`${path.replace(/\/wp-admin\/$/, "")}/wp-login.php`);
      expect(config.strings).toEqual(strings.editor);
      expect(config.languages.map((l: { path: string }) => l.path)).toEqual([
        "/en/wp-admin/",
        "/de/wp-admin/",
      ]);
    }
  });

  it("sends the strict Content-Security-Policy, nosniff and same-origin referrers, and is never cached", async () => {
    const res = await api("/de/wp-admin/");
    expect(res.headers.get("content-security-policy")).toBe(CSP);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("has no inline script or style: only the data block and this origin's files", async () => {
    const { text } = await api("/wp-admin/");
    const scripts = [...text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.map((m) => m[1].trim())).toEqual([
      'type="application/json" id="editor-config"',
      'type="module" src="/_editor/editor.js"',
    ]);
    expect(text).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    expect(text).toContain('<link rel="stylesheet" href="/_editor/editor.css">');
  });

  it("keeps strings with markup as text: escaped in the page, inert inside the data block", async () => {
    // The strings come from KV; a translator's "</script>" must not end the block.
    const title = "</script><script>alert(1)</script> & <b>";
    await env.STRINGS.put(
      stringsKey("de"),
      JSON.stringify({ ...de, editor: { ...de.editor, title, loading: title } }),
    );
    clearStringsCache();
    const { text } = await api("/de/wp-admin/");
    expect(text).toContain(
      "<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</title>",
    );
    const block = /id="editor-config">([^<]*)<\/script>/.exec(text)![1];
    expect(block).not.toContain("<");
    expect(configOf(text).strings.title).toBe(title);
    expect([...text.matchAll(/<script/g)]).toHaveLength(2);
  });

  it("answers /wp-admin and /wp-admin/index.php with a redirect to /wp-admin/, and HEAD without a body", async () => {
    for (const [path, to] of [
      ["/wp-admin", "/wp-admin/"],
      ["/de/wp-admin", "/de/wp-admin/"],
      ["/de/wp-admin/index.php", "/de/wp-admin/"],
    ]) {
      const res = await api(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.get("location"), path).toBe(to);
    }
    const head = await api("/wp-admin/", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("leaves every other path to the API: unknown languages, other wp-admin pages, other methods", async () => {
    expect((await api("/fr/wp-admin/")).body.code).toBe("rest_no_route");
    expect((await api("/wp-admin/", { method: "POST" })).body.code).toBe("rest_no_route");
    const authorize = await api("/wp-admin/authorize-application.php");
    expect(authorize.status).toBe(302);
    expect(authorize.headers.get("location")).toContain("/wp-login.php?redirect_to=");
  });
});

describe("the calendar editor's files (contract §7.11)", () => {
  it("serves the script, the styles and Preact's licence with their types, an ETag and 304", async () => {
    for (const [name, type] of [
      ["editor.js", "text/javascript; charset=utf-8"],
      ["editor.css", "text/css; charset=utf-8"],
      ["preact.LICENSE.txt", "text/plain; charset=utf-8"],
    ]) {
      const res = await api(`/_editor/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toBe(type);
      expect(res.headers.get("x-content-type-options"), name).toBe("nosniff");
      const etag = res.headers.get("etag")!;
      expect(etag, name).toMatch(/^"[0-9a-f]{32}"$/);
      const again = await api(`/_editor/${name}`, { headers: { "if-none-match": etag } });
      expect(again.status, name).toBe(304);
      expect(again.text, name).toBe("");
    }
    expect((await api("/_editor/preact.LICENSE.txt")).text).toContain("MIT");
    // The bundle renders author text as text: no innerHTML anywhere in the editor's code.
    expect((await api("/_editor/editor.js")).text).not.toContain("dangerouslySetInnerHTML:");
  });

  it("answers an unknown file 404 rest_no_route, as any unknown path", async () => {
    const res = await api("/_editor/nothing.js");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("rest_no_route");
  });
});
