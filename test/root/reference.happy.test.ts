/**
 * `GET {namespace}/reference` (contract §7.6): the interactive API reference for people.
 * The browser side (Swagger UI rendering `/doc`, "Try it out") is checked in headless Chromium by
 * `npm run reference:check`; this file checks what the worker answers.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { clearStringsCache, stringsKey } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";

const page = (lang = "", headers: Record<string, string> = {}) =>
  api(`${lang ? `/${lang}` : ""}${NS}/reference`, { headers });

/** `href` and `src` attributes of a page, in order. */
const links = (html: string) => [...html.matchAll(/\s(?:href|src)="([^"]*)"/g)].map((m) => m[1]);

describe("GET /reference — the interactive API reference (contract §7)", () => {
  it("is an HTML page in each language, with the title and intro of that language's strings", async () => {
    for (const [lang, strings, htmlLang] of [
      ["en", en, "en"],
      ["de", de, "de"],
      ["", en, "en"], // unprefixed: the default language
    ] as const) {
      const res = await page(lang);
      expect(res.status, lang).toBe(200);
      expect(res.headers.get("content-type"), lang).toBe("text/html; charset=UTF-8");
      expect(res.text, lang).toMatch(new RegExp(`^<!doctype html>\\n<html lang="${htmlLang}">`));
      expect(res.text, lang).toContain(`<title>${strings.reference.title}</title>`);
      expect(res.text, lang).toContain(`<h1>${strings.reference.title}</h1>`);
      expect(res.text, lang).toContain(`<p>${strings.reference.intro}</p>`);
    }
    expect((await page("de")).text).toContain(
      "<title>REST-API von The Events Calendar: interaktive Referenz</title>",
    );
  });

  it("takes its texts from KV, escaped", async () => {
    const edited = JSON.parse(JSON.stringify(de));
    edited.reference.title = "Kalender <API> & Referenz";
    await env.STRINGS.put(stringsKey("de"), JSON.stringify(edited));
    clearStringsCache();
    const { text } = await page("de");
    expect(text).toContain("<title>Kalender &lt;API&gt; &amp; Referenz</title>");
    expect(text).not.toContain("<API>");
  });

  it("loads only its own static files, all under /_reference/, each served by the worker", async () => {
    const { text } = await page("de");
    const assets = links(text).filter((l) => l.startsWith("/_reference/"));
    expect(assets).toEqual([
      "/_reference/swagger-ui.css",
      "/_reference/reference.css",
      "/_reference/swagger-ui-bundle.js",
      "/_reference/reference.js",
    ]);
    // Nothing from another host (no CDN): every link is a path on this origin.
    expect(links(text).filter((l) => !l.startsWith("/"))).toEqual([]);
    for (const asset of assets) {
      const res = await api(asset, { headers: { origin: "https://elsewhere.example" } });
      expect(res.status, asset).toBe(200);
      expect(res.headers.get("content-type"), asset).toMatch(
        asset.endsWith(".css") ? /^text\/css/ : /^text\/javascript/,
      );
      expect(res.text.length, asset).toBeGreaterThan(asset.includes("swagger") ? 1e5 : 100);
      // The same bytes again are a 304 by their tag; HEAD has no body.
      const etag = res.headers.get("etag")!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      const again = await api(asset, { headers: { "if-none-match": etag } });
      expect(again.status, asset).toBe(304);
      expect((await api(asset, { method: "HEAD" })).text).toBe("");
    }
    // Swagger UI's licence travels with it (section 4 of the Apache License 2.0).
    const licence = await api("/_reference/swagger-ui.LICENSE.txt");
    expect(licence.status).toBe(200);
    expect(licence.text).toContain("Apache License");
  });

  it("answers any other file or method under /_reference/ as an unknown route (§10.1)", async () => {
    for (const [path, method] of [
      ["/_reference/", "GET"],
      ["/_reference/nope.js", "GET"],
      ["/_reference/constructor", "GET"],
      ["/_reference/reference.js", "POST"],
      ["/_reference/reference.js", "DELETE"],
    ] as const) {
      const res = await api(path, { method, body: method === "POST" ? "x" : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code, `${method} ${path}`).toBe("rest_no_route");
      expect(res.body.data.status).toBe(404);
    }
  });

  describe("are reached by their path only: /_reference/ elsewhere in the URL is the route it names", () => {
    it("in a list's query string: the list, through the read cache like any anonymous GET", async () => {
      const id = await seedEvent({ title: "Concert", start: day(1) });
      const list = `${NS}/events?x=/_reference/swagger-ui.css`;
      const first = await api(list);
      expect(first.status).toBe(200);
      expect(first.headers.get("content-type")).toMatch(/^application\/json/);
      expect(first.body.events.map((e: { id: number }) => e.id)).toEqual([id]);
      expect(first.headers.get("x-cache")).toBe("MISS");
      const second = await api(list);
      expect(second.headers.get("x-cache")).toBe("HIT");
      expect(second.text).toBe(first.text);
    });

    it("in a plain-permalink URL (contract §7.4): the route `rest_route` names", async () => {
      const id = await seedEvent({ title: "Concert", start: day(1) });
      const plain = await api(`/?rest_route=${NS.slice(8)}/events&x=/_reference/reference.js`);
      expect(plain.status).toBe(200);
      expect(plain.body.events.map((e: { id: number }) => e.id)).toEqual([id]);
    });

    it("beside a method override (§1.2): a POST with `_method=DELETE` trashes", async () => {
      const id = await seedEvent({ title: "Concert", start: day(1) });
      const trashed = await api(`${NS}/events/${id}?_method=DELETE&x=/_reference/`, {
        method: "POST",
        headers: ADMIN,
      });
      expect(trashed.status).toBe(200);
      expect(trashed.body.status).toBe("trash");
    });

    it("under a language or REST prefix: no file, an unknown route", async () => {
      for (const path of ["/de/_reference/reference.js", `${NS}/_reference/reference.js`]) {
        const res = await api(path);
        expect(res.status, path).toBe(404);
        expect(res.body.code, path).toBe("rest_no_route");
      }
    });
  });

  it("renders this language's /doc and links the other languages' pages", async () => {
    const { text } = await page("de");
    expect(text).toContain(`<main id="reference" data-doc="/de${NS}/doc">`);
    expect((await api(`/de${NS}/doc`)).body.servers).toEqual([{ url: `${ORIGIN}/de${NS}/` }]);
    expect(text).toContain(`<a href="/en${NS}/reference" hreflang="en" lang="en">English</a>`);
    expect(text).toContain(
      `<a href="/de${NS}/reference" hreflang="de" lang="de" aria-current="page">Deutsch</a>`,
    );
    expect((await page()).text).toContain(`data-doc="${NS}/doc"`);
  });

  it("allows scripts from this origin only, none inline", async () => {
    const res = await page("en");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.text.match(/<script[^>]*>/g)).toEqual([
      '<script src="/_reference/swagger-ui-bundle.js">',
      '<script src="/_reference/reference.js">',
    ]);
  });

  it("is listed in the namespace index with its link, and not in /doc (it is not JSON)", async () => {
    const index = await api(`/de${NS}/`);
    expect(index.body.routes["/tribe/events/v1/reference"]).toEqual({
      namespace: "tribe/events/v1",
      methods: ["GET"],
      endpoints: [{ methods: ["GET"], args: [] }],
      _links: { self: [{ href: `${ORIGIN}/de${NS}/reference` }] },
    });
    expect(Object.keys((await api(`${NS}/doc`)).body.paths)).not.toContain("/reference");
  });

  it("is cached like every other anonymous GET: ETag, 304 and the edge cache", async () => {
    const first = await page("de");
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{40}"$/);
    expect(first.headers.get("cache-control")).toBe(
      "public, max-age=60, stale-while-revalidate=300",
    );
    expect(first.headers.get("x-cache")).toBe("MISS");
    // (api returns once the first answer's edge-cache write, its waitUntil, has landed.)
    const second = await page("de");
    expect(second.headers.get("x-cache")).toBe("HIT");
    expect(second.text).toBe(first.text);
    expect(second.headers.get("content-security-policy")).toBe(
      first.headers.get("content-security-policy"),
    );
    const notModified = await page("de", { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");
    // Each language is its own page.
    expect((await page("en")).headers.get("etag")).not.toBe(etag);
  });

  it("is private when the request carries credentials", async () => {
    const res = await page("en", ADMIN);
    expect(res.status).toBe(200);
    expect(res.headers.get("etag")).toBeNull();
    expect(res.headers.get("cache-control")).toBe(
      "no-cache, must-revalidate, max-age=0, no-store, private",
    );
  });
});
