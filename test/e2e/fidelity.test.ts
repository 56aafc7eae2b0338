/**
 * The scenarios of issue 33 ("fidelity and trust") on the running service, as the outside probe
 * found them, for anonymous visitors and every role: what clients of the original rely on is taken
 * (contract §4: plain-text fields take any string), and what an answer hides no filter reveals
 * (contract §4, reference §4.7). The same rules are tested in depth inside workerd
 * (test/linked-posts/plain-fields.security.test.ts, test/http/unicode-input.error.test.ts,
 * test/hardening/html-styles.security.test.ts, test/hardening/filter-visibility.security.test.ts,
 * test/i18n/placeholders.test.ts, test/series/bound.error.test.ts); here they hold on `npm start`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  type Credentials,
  expectEnvelope,
  futureDate,
  get,
  NS,
  ORIGIN,
  send,
  show,
  uniqueWord,
} from "./support/http";
import { createPeople, type People } from "./support/people";

let people: People;
beforeAll(async () => {
  people = await createPeople(uniqueWord("fid"));
});

/** Writers: every role that may create organizers and events (§9.2). */
const WRITERS = ["contributor", "author", "editor", "administrator"] as const;

describe("plain-text fields take what clients of the original send", () => {
  it("a free-text organizer e-mail, from every role that writes, alone and with an event", async () => {
    for (const role of WRITERS) {
      const auth = people[role].auth;
      const name = uniqueWord(`crew-${role}-`);
      const alone = await send("POST", `${NS}/organizers`, {
        auth,
        json: { organizer: name, email: "info at example dot org", phone: "<b>+1</b> & 555" },
      });
      expect(alone.status, show(alone)).toBe(201);
      expect(alone.body.email).toBe("info at example dot org");
      expect(alone.body.phone).toBe("+1 &amp; 555");
      const withEvent = await send("POST", `${NS}/events`, {
        auth,
        json: {
          title: uniqueWord("fidelity-"),
          start_date: futureDate(5),
          end_date: futureDate(5, 12),
          organizer: [{ organizer: `${name} b`, email: `${role} desk, ask for Sam` }],
        },
      });
      expect(withEvent.status, show(withEvent)).toBe(201);
      expect(withEvent.body.organizer[0].email).toBe(`${role} desk, ask for Sam`);
    }
  });
});

describe("text input is valid Unicode", () => {
  const count = async (search: string) =>
    (await get(`${NS}/events?search=${search}&status=publish,draft,pending`, ADMIN)).body.total;

  it("a lone surrogate in JSON and a form body that is not UTF-8 are refused, nothing stored", async () => {
    const word = uniqueWord("unicode");
    const before = await count(word);
    const json = await send("POST", `${NS}/events`, {
      auth: ADMIN,
      json: {
        title: `${word} \ud800`,
        start_date: futureDate(6),
        end_date: futureDate(6, 11),
      },
    });
    expect(json.status, show(json)).toBe(400);
    expectEnvelope(json);
    const form = await fetch(`${ORIGIN}${NS}/events`, {
      method: "POST",
      headers: {
        authorization: basic(ADMIN),
        "content-type": "application/x-www-form-urlencoded",
      },
      body: `title=${word}%FF&start_date=${encodeURIComponent(futureDate(6))}&end_date=${encodeURIComponent(futureDate(6, 11))}`,
    });
    const body = (await form.json()) as { code: string; data: { params: Record<string, string> } };
    expect(form.status).toBe(400);
    expect(Object.keys(body.data.params)).toEqual(["title"]);
    expect(await count(word)).toBe(before);
  });
});

describe("one HTML filter", () => {
  it("a CSS escape drops its declaration alike in description and excerpt", async () => {
    const html = '<p style="background:u\\rl(javascript:alert(1));color:red">Hi</p>';
    const res = await send("POST", `${NS}/events`, {
      auth: people.author.auth,
      json: {
        title: uniqueWord("styles-"),
        start_date: futureDate(7),
        end_date: futureDate(7, 11),
        description: html,
        excerpt: html,
      },
    });
    expect(res.status, show(res)).toBe(201);
    expect(res.body.description).toBe('<p style="color:red">Hi</p>');
    expect(res.body.excerpt).toBe(res.body.description);
  });
});

describe("messages are whole, recurrence stays bounded", () => {
  it("a refused series says what it refuses, in English and German, with no placeholder left", async () => {
    for (const lang of ["en", "de"]) {
      const res = await send("POST", `/${lang}${NS}/events`, {
        auth: ADMIN,
        json: {
          title: uniqueWord("series-"),
          start_date: "2029-06-04 19:00:00",
          end_date: "2029-06-04 21:00:00",
          recurrence: ["RRULE:FREQ=WEEKLY;COUNT=3", "RDATE:20290611T080000"],
        },
      });
      expect(res.status, show(res)).toBe(400);
      const text = `${res.body.message} ${Object.values(res.body.data.params).join(" ")}`;
      expect(text, show(res)).toContain("recurrence");
      expect(text, show(res)).not.toMatch(/%(\d+\$)?[sd]/);
    }
  });

  it("the probe's 49 EXDATE lines of 240 dates are refused, naming recurrence; nothing stored", async () => {
    const title = uniqueWord("bound-");
    const lines = Array.from(
      { length: 49 },
      (_, line) =>
        `EXDATE:${Array.from({ length: 240 }, (_, i) => {
          const d = new Date(Date.UTC(2027, 0, 1) + (line * 240 + i) * 3_600_000);
          return `${d.toISOString().replace(/[-:]/g, "").slice(0, 15)}Z`;
        }).join(",")}`,
    );
    const res = await send("POST", `${NS}/events`, {
      auth: ADMIN,
      json: {
        title,
        start_date: futureDate(8),
        end_date: futureDate(8, 11),
        recurrence: ["RRULE:FREQ=WEEKLY;COUNT=5", ...lines],
      },
    });
    expect(res.status, show(res)).toBe(400);
    expect(Object.keys(res.body.data.params)).toEqual(["recurrence"]);
    expect((await get(`${NS}/events?search=${title}`, ADMIN)).body.total).toBe(0);
  });
});

describe("filters reveal nothing the answer hides", () => {
  it("a draft venue's location and id, and a protected event's category, for anonymous and a subscriber", async () => {
    const word = uniqueWord("hidden");
    const venue = await send("POST", `${NS}/venues`, {
      auth: people.author.auth,
      json: { venue: `${word} hall`, status: "draft", geo_lat: 48.13743, geo_lng: 11.57549 },
    });
    expect(venue.status, show(venue)).toBe(201);
    const category = await send("POST", `${NS}/categories`, {
      auth: ADMIN,
      json: { name: `${word} members` },
    });
    expect(category.status, show(category)).toBe(201);
    const event = await send("POST", `${NS}/events`, {
      auth: people.author.auth,
      json: {
        title: `${word} published`,
        start_date: futureDate(9),
        end_date: futureDate(9, 12),
        venue: venue.body.id,
      },
    });
    expect(event.status, show(event)).toBe(201);
    const locked = await send("POST", `${NS}/events`, {
      auth: ADMIN,
      json: {
        title: `${word} locked`,
        start_date: futureDate(9),
        end_date: futureDate(9, 12),
        categories: [category.body.id],
        password: "letmein",
      },
    });
    expect(locked.status, show(locked)).toBe(201);
    const near = `geoloc_lat=48.1374&geoloc_lng=11.5755&geoloc_radius=0.05&search=${word}`;
    for (const who of ["anonymous", "subscriber"] as const) {
      const auth = people[who].auth;
      const geo = await get(`${NS}/events?${near}`, auth);
      expect(geo.status, show(geo)).toBe(200);
      expect(geo.body.total, `${who}: ${show(geo)}`).toBe(0);
      const hidden = await get(`${NS}/events?venue=${venue.body.id}`, auth);
      const missing = await get(`${NS}/events?venue=999999999`, auth);
      expect(hidden.status, show(hidden)).toBe(missing.status);
      expect(hidden.body.code).toBe(missing.body.code);
      const members = await get(`${NS}/events?categories=${category.body.id}`, auth);
      expect(members.body.total ?? 0, `${who}: ${show(members)}`).toBe(0);
    }
    const opened = await get(
      `${NS}/events?categories=${category.body.id}&password=letmein`,
      people.subscriber.auth,
    );
    expect(opened.body.events.map((e: { id: number }) => e.id)).toEqual([locked.body.id]);
    const editor = await get(`${NS}/events?${near}`, people.editor.auth);
    expect(editor.body.events.map((e: { id: number }) => e.id)).toEqual([event.body.id]);
  });
});

function basic(auth: Credentials): string {
  if (!auth) return "";
  return `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
}
