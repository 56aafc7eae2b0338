/**
 * Every message of the strings files that has a placeholder (`%s`, `%d`, and positional forms such
 * as `%1$s`) reaches its reader whole, in English and in German (contract §1): each is raised here
 * through the request that makes the worker send it, under `/en/` and `/de/`, and the text sent
 * must be that language's template with every placeholder filled with the value it stands for.
 *
 * The table of requests covers exactly the strings files' keys with placeholders: a new message
 * with a placeholder fails the completeness test until it has a request here.
 */
import { env } from "cloudflare:workers";
import { decodeHTML } from "entities";
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_QUERY_CHARS } from "../../src/http/params";
import { leaves } from "../../src/i18n";
import de from "../../src/i18n/strings/de.json";
import en from "../../src/i18n/strings/en.json";
import { ADMIN, type ApiResponse, api, NS } from "../support/api";
import { formNonce, postAuthorize, signIn } from "../users/browser";

const LANGUAGES = { en: leaves(en), de: leaves(de) } as const;
type Lang = keyof typeof LANGUAGES;

/** A printf placeholder as PHP's `sprintf` (WordPress's `__()` texts) writes them. */
const PLACEHOLDER = /%(?:\d+\$)?[sdfu]/g;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Where the answer carries the message. */
type Where = "message" | { param: string } | "page";

interface Case {
  /** The request, under the language prefix (`/en`, `/de`). */
  send: (prefix: string) => Promise<ApiResponse>;
  where: Where;
  /** What each placeholder must be filled with, in order. */
  values: Array<string | RegExp>;
}

const AUTHORIZE = "/wp-admin/authorize-application.php";

/** The `Cookie` header of a signed-in administrator. */
const signedIn = async () => ({ cookie: (await signIn("admin", "test admin password")).cookie });

const webhook = (prefix: string, json: Record<string, unknown>) =>
  api(`${prefix}${NS}/webhooks`, {
    headers: ADMIN,
    json: { url: "https://hooks.test/a", events: ["*"], ...json },
  });

/** A series create; 2 March 2027 is a Tuesday. */
const series = (prefix: string, json: Record<string, unknown>) =>
  api(`${prefix}${NS}/events`, {
    headers: ADMIN,
    json: {
      title: "Series",
      start_date: "2027-03-02 19:00:00",
      end_date: "2027-03-02 21:00:00",
      ...json,
    },
  });

/** Each message key with a placeholder, and a request that raises it. */
const CASES: Record<string, Case> = {
  "messages.rest_invalid_param": {
    send: (p) => api(`${p}${NS}/events?page=x`),
    where: "message",
    values: ["page"],
  },
  "messages.rest_missing_callback_param": {
    send: (p) => api(`${p}${NS}/events?geoloc_lat=52.5`),
    where: "message",
    values: ["geoloc_lng"],
  },
  "messages.rest_payload_too_large": {
    send: (p) =>
      api(`${p}${NS}/events`, {
        headers: ADMIN,
        json: { title: "x".repeat(MAX_BODY_BYTES) },
      }),
    where: "message",
    values: [String(MAX_BODY_BYTES)],
  },
  "messages.rest_uri_too_long": {
    send: (p) => api(`${p}${NS}/events?zz=${"q".repeat(MAX_QUERY_CHARS)}`),
    where: "message",
    values: [String(MAX_QUERY_CHARS)],
  },
  "messages.rest_setting_invalid": {
    send: (p) => api(`${p}${NS}/events`, {}, { ...env, SITE_TIMEZONE: "Mars/Base" }),
    where: "message",
    values: [/SITE_TIMEZONE.*Mars\/Base/],
  },
  "messages.rest-event-not-found": {
    send: (p) => api(`${p}${NS}/events/987654`),
    where: "message",
    values: ["987654"],
  },
  "messages.override_changed": {
    // An import's revert (the series' uid) of an override the API changed since (contract §7.9).
    send: async (p) => {
      const uid = `override-changed${p.replace("/", "-")}@messages.test`;
      const s = await series(p, { uid, recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3"] });
      const list = await api(`${p}${NS}/events?series=${s.body.id}&start_date=2027-03-01`);
      const second = list.body.events[1].id;
      await api(`${p}${NS}/events/${second}`, {
        method: "PATCH",
        headers: ADMIN,
        json: { title: "Own" },
      });
      return api(`${p}${NS}/events/${second}`, {
        method: "PATCH",
        headers: ADMIN,
        json: { revert: true, uid },
      });
    },
    where: "message",
    values: [/^\d+$/],
  },
  "params.not_of_type": {
    send: (p) => api(`${p}${NS}/events?featured=maybe`),
    where: { param: "featured" },
    values: ["featured", "boolean"],
  },
  "params.not_in_enum": {
    send: (p) => series(p, { currency_position: "middle" }),
    where: { param: "currency_position" },
    values: ["currency_position", "prefix, postfix"],
  },
  "params.webhook_url": {
    send: (p) => webhook(p, { url: "ftp://hooks.test/a" }),
    where: { param: "url" },
    values: ["url"],
  },
  "params.webhook_events": {
    send: (p) => webhook(p, { events: ["event.exploded"] }),
    where: { param: "events" },
    values: ["events"],
  },
  "params.webhook_private_target": {
    send: (p) => webhook(p, { url: "http://127.0.0.1:9000/hook" }),
    where: { param: "url" },
    values: ["url"],
  },
  "params.out_of_range": {
    send: (p) => webhook(p, { coalesce_seconds: 0 }),
    where: { param: "coalesce_seconds" },
    values: ["coalesce_seconds", "1", "3600"],
  },
  "params.too_long": {
    send: (p) => webhook(p, { description: "x".repeat(1001) }),
    where: { param: "description" },
    values: ["description", "1000"],
  },
  "params.recurrence_line": {
    send: (p) => series(p, { recurrence: ["RRULE:FREQ=FOO"] }),
    where: { param: "recurrence" },
    values: ["recurrence", "RRULE:FREQ=FOO"],
  },
  "params.recurrence_limit": {
    send: (p) =>
      series(p, {
        start_date: "2024-01-01 09:00:00",
        end_date: "2024-01-01 10:00:00",
        recurrence: ["RRULE:FREQ=DAILY"],
      }),
    where: { param: "recurrence" },
    values: ["recurrence", "1000"],
  },
  "params.recurrence_start": {
    send: (p) => series(p, { recurrence: ["RRULE:FREQ=WEEKLY;BYDAY=MO"] }),
    where: { param: "recurrence" },
    values: ["recurrence"],
  },
  "params.recurrence_day": {
    send: (p) => series(p, { recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20270309T080000"] }),
    where: { param: "recurrence" },
    values: ["recurrence", "2027-03-09"],
  },
  "params.recurrence_span": {
    // A rule that never gives a day (no 30 February), from long ago: too many days to step through.
    send: (p) =>
      series(p, {
        start_date: "1880-01-01 10:00:00",
        end_date: "1880-01-01 11:00:00",
        recurrence: ["RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30"],
      }),
    where: { param: "recurrence" },
    values: ["recurrence", "50000"],
  },
  "params.recurrence_size": {
    send: (p) =>
      series(p, {
        recurrence: [
          "RRULE:FREQ=WEEKLY;COUNT=3",
          ...Array.from(
            { length: 5 },
            (_, line) =>
              `EXDATE:${Array.from({ length: 201 }, (_, i) => {
                const d = new Date(Date.UTC(2028, 0, 1) + (line * 201 + i) * 86_400_000);
                return `${d.toISOString().slice(0, 10).replaceAll("-", "")}T190000`;
              }).join(",")}`,
          ),
        ],
      }),
    where: { param: "recurrence" },
    values: ["recurrence", "1000", "4000"],
  },
  "params.not_utf8": {
    send: (p) =>
      api(`${p}${NS}/categories`, {
        headers: { ...ADMIN, "content-type": "application/x-www-form-urlencoded" },
        body: "name=Caf%E9",
      }),
    where: { param: "name" },
    values: ["name"],
  },
  "site.authorize.question_named": {
    send: async (p) => api(`${p}${AUTHORIZE}?app_name=Sync%20App`, { headers: await signedIn() }),
    where: "page",
    values: ["Sync App"],
  },
  "site.authorize.sent_to": {
    send: async (p) =>
      api(`${p}${AUTHORIZE}?success_url=${encodeURIComponent("https://app.example/cb")}`, {
        headers: await signedIn(),
      }),
    where: "page",
    values: ["https://app.example/cb?user_login=admin&password=%5B------%5D"],
  },
  "site.authorize.new_password": {
    send: async (p) => {
      const headers = await signedIn();
      const page = await api(`${p}${AUTHORIZE}`, { headers });
      return postAuthorize(
        headers.cookie,
        { _wpnonce: formNonce(page), app_name: `Sync ${p}`, approve: "1" },
        {},
        p,
      );
    },
    where: "page",
    values: [/^Sync \/(en|de)$/, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/],
  },
};

/** The keys of every language's strings whose text has a placeholder. */
function keysWithPlaceholders(): string[] {
  const keys = new Set<string>();
  for (const strings of Object.values(LANGUAGES))
    for (const [key, value] of strings) if (value.match(PLACEHOLDER)) keys.add(key);
  return [...keys].sort();
}

/** The template as a pattern: its text literally, each placeholder a captured value. */
const pattern = (template: string) => template.split(PLACEHOLDER).map(escapeRegExp).join("(.+?)");

/** The rendered text of `key` in the answer (for a page: the first text that fits the template). */
function rendered(res: ApiResponse, where: Where, template: string): string {
  if (where === "message") return res.body?.message;
  if (where === "page") {
    const texts = [...res.text.matchAll(/>([^<>]+)</g)].map((m) => decodeHTML(m[1]).trim());
    const matched = texts.find((t) => new RegExp(`^${pattern(template)}$`, "s").test(t));
    return matched ?? texts.join(" | ");
  }
  return res.body?.data?.params?.[where.param];
}

describe("every message with a placeholder, as the worker sends it (contract §1)", () => {
  it("the table of requests covers exactly the strings' keys with placeholders", () => {
    const keys = keysWithPlaceholders();
    expect(keys.length).toBeGreaterThan(15);
    expect(Object.keys(CASES).sort()).toEqual(keys);
  });

  it.each(Object.keys(CASES))("%s is whole in English and German", async (key) => {
    const { send, where, values } = CASES[key];
    for (const lang of Object.keys(LANGUAGES) as Lang[]) {
      const template = LANGUAGES[lang].get(key);
      expect(template, `${lang} ${key}`).toBeTypeOf("string");
      const res = await send(`/${lang}`);
      const text = rendered(res, where, template!);
      const context = `${lang} ${key}: ${res.status} ${res.text.slice(0, 600)}`;
      expect(text, context).toBeTypeOf("string");
      expect(text.match(PLACEHOLDER), `${context}\n→ ${text}`).toBeNull();
      const filled = new RegExp(`^${pattern(template!)}$`, "s").exec(text);
      expect(filled, `${lang} ${key} is not its template: ${text}`).not.toBeNull();
      const got = filled!.slice(1);
      expect(got.length).toBe(values.length);
      values.forEach((want, i) => {
        if (typeof want === "string") expect(got[i], `${lang} ${key} value ${i + 1}`).toBe(want);
        else expect(got[i], `${lang} ${key} value ${i + 1}`).toMatch(want);
      });
    }
  });
});
