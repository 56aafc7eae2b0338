/// <reference types="vite/client" />
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { namespaceGroup } from "../../src/app";
import type { ArgSpecs } from "../../src/http/args";
import { API_ERROR_CODES, EXTRA_MESSAGE_KEYS } from "../../src/http/error-codes";
import {
  clearStringsCache,
  leaves,
  loadStrings,
  STRINGS_TTL_S,
  type Strings,
  stringsClock,
  stringsKey,
} from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { LINKED } from "../../src/linked-posts/kinds";
import { mediaRoutes } from "../../src/media/routes";
import type { Bindings } from "../../src/settings";
import { parseSettings } from "../../src/settings";
import { userRoutes } from "../../src/users/routes";
import { ADMIN, api, NS } from "../support/api";

const EN = leaves(en);
const DE = leaves(de);

/** Every argument spec any route validates with (nested venue/organizer objects included). */
function allSpecs(): ArgSpecs[] {
  const routes = [
    ...namespaceGroup(parseSettings(env)).routes,
    ...userRoutes(),
    ...mediaRoutes(),
  ] as Array<{ endpoints: Array<{ args: ArgSpecs }> }>;
  return [
    ...routes.flatMap((r) => r.endpoints.map((e) => e.args)),
    ...Object.values(LINKED).map((k) => k.args),
  ];
}

/** The source of the worker, to find every parameter message key it encodes. */
const SOURCES = import.meta.glob("../../src/**/*.ts", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/**
 * Every message key of an error the worker throws: the closed list of codes `ApiError` accepts
 * (src/http/error-codes.ts; a code not in it does not compile) and the extra keys of codes with
 * several messages.
 */
function thrownCodes(): string[] {
  return [...API_ERROR_CODES, ...EXTRA_MESSAGE_KEYS];
}

/** Keys `issue("key", …)` encodes for `data.params` messages. */
function paramKeys(): string[] {
  return [
    ...new Set(
      Object.values(SOURCES).flatMap((s) => [...s.matchAll(/issue\("([^"]+)"/g)].map((m) => m[1])),
    ),
  ];
}

const placeholders = (text: string) => (text.match(/%[sd]/g) ?? []).join("");

describe("the strings files (contract §1)", () => {
  it("have an English text for every argument description any route declares", () => {
    const keys = allSpecs().flatMap((specs) =>
      Object.values(specs)
        .map((a) => a.description)
        .filter(Boolean),
    );
    expect(keys.length).toBeGreaterThan(150);
    expect(keys.filter((k) => !EN.has(`args.${k}`))).toEqual([]);
  });

  it("have a message in both languages for every error code the worker throws, and every parameter message", () => {
    const codes = thrownCodes();
    expect(codes).toEqual(
      expect.arrayContaining([
        "rest_no_route",
        "rest-event-not-found",
        "venue-is-in-trash",
        "term_exists_parent",
      ]),
    );
    expect(codes.filter((c) => !EN.has(`messages.${c}`))).toEqual([]);
    expect(codes.filter((c) => !DE.has(`messages.${c}`))).toEqual([]);
    const params = paramKeys();
    expect(params).toEqual(expect.arrayContaining(["invalid", "not_of_type"]));
    expect(params.filter((k) => !EN.has(`params.${k}`) || !DE.has(`params.${k}`))).toEqual([]);
  });

  it("render no key in place of a text: index and /doc find every description they use", async () => {
    for (const lang of ["en", "de"]) {
      for (const path of [`/${lang}${NS}/`, `/${lang}${NS}/doc`]) {
        const text = (await api(path)).text;
        expect(text.match(/"description":"(args|doc)\.[\w.-]+"/g), path).toBeNull();
      }
    }
  });

  it("German translates exactly what English has, with the same placeholders", () => {
    expect([...DE.keys()].filter((k) => !EN.has(k))).toEqual([]);
    expect([...EN.keys()].filter((k) => !DE.has(k))).toEqual([]);
    expect(
      [...DE].filter(([k, v]) => placeholders(v) !== placeholders(EN.get(k)!)).map(([k]) => k),
    ).toEqual([]);
  });
});

describe("strings come from KV (contract §1)", () => {
  const edited = (strings: Strings, change: (s: any) => void): string => {
    const copy = JSON.parse(JSON.stringify(strings));
    change(copy);
    return JSON.stringify(copy);
  };
  const pageText = async (lang: string) =>
    (await api(`/${lang}${NS}/`, { headers: ADMIN })).body.routes["/tribe/events/v1/events"]
      .endpoints[0].args.page.description;

  /** Stops the strings' clock at the start of a period; `advance` moves it on. */
  const stopStringsClock = () => {
    let now = Math.ceil(Date.now() / (STRINGS_TTL_S * 1000)) * STRINGS_TTL_S * 1000;
    stringsClock.now = () => now;
    clearStringsCache(); // loaded again in the stopped clock's first period
    return (seconds: number) => {
      now += seconds * 1000;
    };
  };
  afterEach(() => {
    stringsClock.now = () => Date.now();
  });

  /** The test environment with its `STRINGS` reads counted, by key. */
  const countingReads = () => {
    const reads: string[] = [];
    const kv = env.STRINGS;
    const STRINGS = new Proxy(kv, {
      get: (target, name) =>
        name === "get"
          ? (key: string, ...rest: unknown[]) => {
              reads.push(key);
              return (target.get as (...a: unknown[]) => unknown)(key, ...rest);
            }
          : Reflect.get(target, name),
    });
    return { reads, bindings: { ...env, STRINGS } as Bindings };
  };

  it("reads each language once per period of STRINGS_TTL_S, and a changed KV entry in the next one", async () => {
    const advance = stopStringsClock();
    const { reads, bindings } = countingReads();
    const describe = async (lang: string) =>
      (await api(`/${lang}${NS}/`, { headers: ADMIN }, bindings)).body.routes[
        "/tribe/events/v1/events"
      ].endpoints[0].args.page.description;
    expect(await describe("de")).toBe("Nummer der abzurufenden Archivseite");
    await env.STRINGS.put(
      stringsKey("de"),
      edited(de, (s) => (s.args.events.page = "Seite (aus KV)")),
    );
    for (let i = 0; i < 5; i++) {
      advance(STRINGS_TTL_S / 6);
      expect(await describe("de")).toBe("Nummer der abzurufenden Archivseite"); // kept in the isolate
    }
    expect(reads.sort()).toEqual(["strings:de", "strings:en"]); // once per language, not per request
    advance(STRINGS_TTL_S / 6);
    expect(await describe("de")).toBe("Seite (aus KV)");
    const doc = await api(`/de${NS}/doc`, { headers: ADMIN }, bindings);
    expect(doc.body.paths["/events"].get.parameters[0].description).toBe("Seite (aus KV)");
    expect(reads.sort()).toEqual(["strings:de", "strings:de", "strings:en", "strings:en"]);
  });

  it("keys cached answers by the strings read: new strings a new key, the same strings the same key", async () => {
    const advance = stopStringsClock();
    const index = (headers: Record<string, string> = {}) => api(`/de${NS}/`, { headers });
    const first = await index();
    expect(first.headers.get("x-cache")).toBe("MISS");
    const etag = first.headers.get("etag")!;
    expect((await index()).headers.get("x-cache")).toBe("HIT");
    await env.STRINGS.put(
      stringsKey("de"),
      edited(de, (s) => (s.args.events.page = "Seite (aus KV)")),
    );
    advance(STRINGS_TTL_S);
    const changed = await index({ "if-none-match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("x-cache")).toBe("MISS");
    expect(changed.headers.get("etag")).not.toBe(etag);
    expect(changed.text).toContain("Seite (aus KV)");
    // Read again in the next period, unchanged: the same key, and the kept answer.
    advance(STRINGS_TTL_S);
    const same = await index();
    expect(same.headers.get("etag")).toBe(changed.headers.get("etag"));
    expect(same.headers.get("x-cache")).toBe("HIT");
    expect(same.text).toBe(changed.text);
  });

  it("shares no read in flight between requests: one whose read never ends does not hold up the next", async () => {
    stopStringsClock();
    let calls = 0;
    // The first read never settles (its request was cancelled: workerd would cancel every other
    // request awaiting it as hung); the second is an ordinary read.
    const STRINGS = new Proxy(env.STRINGS, {
      get: (target, name) =>
        name === "get"
          ? (...args: unknown[]) =>
              calls++ === 0
                ? new Promise(() => {})
                : (target.get as (...a: unknown[]) => unknown).apply(target, args)
          : Reflect.get(target, name),
    });
    void loadStrings(STRINGS, "en");
    const second = await Promise.race([
      loadStrings(STRINGS, "en"),
      new Promise((resolve) => setTimeout(() => resolve("held up"), 2000)),
    ]);
    expect(second).not.toBe("held up");
    expect(calls).toBe(2);
  });

  it("keeps no answer made while the strings turned over: it would hold newer strings than its key", async () => {
    stopStringsClock();
    await env.STRINGS.put(
      stringsKey("de"),
      edited(de, (s) => (s.args.events.page = "Seite (aus KV)")),
    );
    // A clock one period on at every reading after the read cache's: the handler reads new strings.
    let calls = 0;
    const start = stringsClock.now();
    stringsClock.now = () => start + (calls++ === 0 ? 0 : STRINGS_TTL_S * 1000);
    const made = await api(`/de${NS}/`);
    expect(made.status).toBe(200);
    expect(made.text).toContain("Seite (aus KV)");
    // Not kept under the first key: the next request for it is made again, not a hit.
    calls = 0;
    stringsClock.now = () => start;
    expect((await api(`/de${NS}/`)).headers.get("x-cache")).toBe("MISS");
  });

  it("keeps what it read when KV fails, and asks again soon after", async () => {
    const advance = stopStringsClock();
    const { bindings } = countingReads();
    const failing = {
      ...bindings,
      STRINGS: { get: () => Promise.reject(new Error("KV down")) } as unknown as KVNamespace,
    };
    const title = async (b: Bindings) =>
      (await api(`/de${NS}/doc`, { headers: ADMIN }, b)).body.info.title;
    expect(await title(bindings)).toBe("REST-API von The Events Calendar");
    advance(STRINGS_TTL_S);
    expect(await title(failing)).toBe("REST-API von The Events Calendar"); // not English
    await env.STRINGS.put(
      stringsKey("de"),
      edited(de, (s) => (s.doc.info.title = "Kalender-API")),
    );
    advance(10);
    expect(await title(bindings)).toBe("Kalender-API");
  });

  it("falls back to English for a key a language lacks, also in messages", async () => {
    await env.STRINGS.put(
      stringsKey("de"),
      edited(de, (s) => {
        delete s.args.events.page;
        delete s.messages["rest-event-not-found"];
      }),
    );
    clearStringsCache();
    expect(await pageText("de")).toBe("The archive page to return");
    expect((await api(`/de${NS}/events/99999`)).body.message).toBe(
      "Event with ID 99999 does not exist.",
    );
    expect((await api(`/de${NS}/events?page=0`)).body.message).toBe("Ungültige(r) Parameter: page");
  });

  it("uses the KV text in every language, English included", async () => {
    await env.STRINGS.put(
      stringsKey("en"),
      edited(en, (s) => (s.doc.info.title = "Calendar API")),
    );
    clearStringsCache();
    expect((await api(`${NS}/doc`, { headers: ADMIN })).body.info.title).toBe("Calendar API");
    expect((await api(`/de${NS}/doc`, { headers: ADMIN })).body.info.title).toBe(
      "REST-API von The Events Calendar",
    );
  });
});
