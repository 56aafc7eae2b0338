import { describe, expect, it } from "vitest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { withoutClock } from "../support/clock";
import { seedCalendar } from "./calendar";

/** Keys whose string values are wording (contract §1: the only thing the languages may differ in). */
const WORDING = new Set(["description", "message", "title", "summary"]);

/**
 * The document with every wording replaced by a marker (collected in `texts`) and the language
 * prefix of URLs removed: what must be identical between languages.
 */
function skeleton(node: unknown, lang: string, texts: string[] = [], key = ""): unknown {
  if (Array.isArray(node)) return node.map((n) => skeleton(n, lang, texts));
  if (node && typeof node === "object") {
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        if (key !== "params" || typeof v !== "string") return [k, skeleton(v, lang, texts, k)];
        texts.push(v);
        return [k, "<text>"];
      }),
    );
  }
  if (typeof node === "string" && WORDING.has(key)) {
    texts.push(node);
    return "<text>";
  }
  return typeof node === "string" ? withoutLanguage(node, lang) : node;
}

const HOST = new URL(ORIGIN).host;

/**
 * Removes the language prefix from the links contract §1 builds from the site URL (origin plus
 * language prefix when SITE_URL is unset). `global_id` has none to remove: it names the post on
 * the site, whatever the language it was read in.
 */
const withoutLanguage = (text: string, lang: string) =>
  text.replaceAll(`${ORIGIN}/${lang}/`, `${ORIGIN}/`);

async function both(
  path: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
) {
  const [en, de] = await Promise.all([api(`/en${path}`, init), api(`/de${path}`, init)]);
  const texts = { en: [] as string[], de: [] as string[] };
  return {
    en,
    de,
    texts,
    same: { en: skeleton(en.body, "en", texts.en), de: skeleton(de.body, "de", texts.de) },
  };
}

describe("the two language versions (contract §1)", () => {
  it("serve the same index and /doc, worded in their language", async () => {
    for (const path of [`${NS}/`, `${NS}/doc`]) {
      const { en, de, texts, same } = await both(path);
      expect(en.status).toBe(200);
      expect(de.status).toBe(200);
      expect(same.de, path).toEqual(same.en);
      expect(texts.de.length, path).toBe(texts.en.length);
      expect(texts.en.length, path).toBeGreaterThan(100);
      // Translated, not copied: only names and codes may read the same.
      const unchanged = texts.en.filter((t, i) => t === texts.de[i]);
      expect(
        unchanged.length / texts.en.length,
        `${path}: ${[...new Set(unchanged)].join(" | ")}`,
      ).toBeLessThan(0.02);
    }
    const doc = (await api(`/de${NS}/doc`)).body;
    expect(doc.info.description).toBe(
      "Mit der REST-API von The Events Calendar lassen sich Informationen über bevorstehende Veranstaltungen einfach und bequem abrufen.",
    );
    expect(doc.paths["/events"].get.responses["200"].description).toBe(
      "Gibt alle bevorstehenden Veranstaltungen zurück, die den Suchkriterien entsprechen",
    );
    const index = (await api(`/de${NS}`)).body;
    expect(index.routes["/tribe/events/v1/events"].endpoints[0].args.page.description).toBe(
      "Nummer der abzurufenden Archivseite",
    );
  });

  it("answer with the same data, codes and parameters; only messages are translated", async () => {
    const cal = await seedCalendar();
    const reads = [
      "/events",
      `/events/${cal.full.id}`,
      `/events/by-slug/${cal.full.slug}`,
      "/venues",
      `/venues/${cal.venue.id}`,
      "/organizers",
      `/organizers/${cal.organizer.id}`,
      "/categories?hide_empty=0",
      `/categories/${cal.category}`,
      "/tags",
      `/tags/${cal.tag}`,
      // Errors: codes, statuses and parameters alike, messages translated.
      "/events/999999",
      "/events?page=0&per_page=abc",
      `/events/${cal.protectedEvent}`,
      "/venues/999999",
      "/nope",
    ];
    for (const path of reads) {
      const { en, de, texts, same } = await both(`${NS}${path}`);
      expect(de.status, path).toBe(en.status);
      expect(same.de, path).toEqual(same.en);
      if (en.status >= 400) {
        expect(texts.de.length, path).toBeGreaterThan(0);
        for (const [i, t] of texts.en.entries()) expect(texts.de[i], path).not.toBe(t);
      } else {
        expect(withoutLanguage(JSON.stringify(de.body), "de"), path).toBe(
          withoutLanguage(JSON.stringify(en.body), "en"),
        );
      }
    }
    const denied = await both(`${NS}/events`, { method: "POST", json: { title: "x" } });
    expect(denied.de.status).toBe(400);
    expect(denied.same.de).toEqual(denied.same.en);
    expect(denied.de.body.message).toBe("Fehlende(r) Parameter: start_date, end_date");
    const options = await both(`${NS}/events/by-slug/x`, { method: "OPTIONS", headers: ADMIN });
    expect(options.same.de).toEqual(options.same.en);
    expect(options.de.headers.get("allow")).toBe(options.en.headers.get("allow"));
  });

  it("global_id is the same in every language: {host}{path of site}?id=N, without the prefix", async () => {
    const cal = await seedCalendar();
    for (const path of [`/events/${cal.full.id}`, `/venues/${cal.venue.id}`, "/events"]) {
      const ids = await Promise.all(
        ["", "/en", "/de"].map(async (prefix) => {
          const body = (await api(`${prefix}${NS}${path}`)).body;
          const item = body.events?.[0] ?? body;
          return [item.global_id, item.global_id_lineage[0], item.venue?.global_id ?? null];
        }),
      );
      expect(ids[1], path).toEqual(ids[0]);
      expect(ids[2], path).toEqual(ids[0]);
      expect(ids[0][0], path).toMatch(new RegExp(`^${HOST.replace(/\./g, "\\.")}\\?id=\\d+$`));
    }
  });

  it("the default language is served without prefix, identical to its prefixed version", async () => {
    const plain = await api(`${NS}/doc`);
    const en = await api(`/en${NS}/doc`);
    // The default end_date reads the clock to the second: the two requests may straddle one.
    const clockless = (body: unknown) => JSON.stringify(withoutClock(body));
    expect(clockless(plain.body)).toBe(
      clockless(JSON.parse(JSON.stringify(en.body).replaceAll(`${ORIGIN}/en/`, `${ORIGIN}/`))),
    );
    expect(clockless(plain.body)).toContain('"default":"<now>"');
  });
});
