/**
 * Limits: bodies over 1 MiB → 413 (whatever the encoding, declared or streamed),
 * query strings over 8192 characters → 414, `per_page` clamped, search strings capped, FTS5 syntax
 * from users never reaching FTS5 unquoted, and PHP bracket abuse bounded.
 */
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_QUERY_CHARS } from "../../src/http/params";
import { MAX_SEARCH_CHARS } from "../../src/http/validators";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedOrganizer, seedTerm, seedVenue } from "../support/factories";
import { call, ORIGIN } from "./support/client";
import { contentDigest } from "./support/digest";

const WRITES: Array<[string, string]> = [
  ["POST", `${NS}/events`],
  ["POST", `${NS}/venues`],
  ["POST", `${NS}/categories`],
  ["POST", "/wp-json/wp/v2/users"],
  ["POST", "/wp-json/wp/v2/media"],
  ["POST", "/wp-json/wp/v2/users/me/application-passwords"],
];

describe("request bodies over 1 MiB → 413 (contract §5)", () => {
  it.each(WRITES)(
    "%s %s, for JSON, form and multipart bodies, declared or streamed, and changes nothing",
    async (method, path) => {
      const before = await contentDigest();
      const big = "x".repeat(MAX_BODY_BYTES);
      const bodies: Array<[string, string]> = [
        ["application/json", JSON.stringify({ title: big, name: big, venue: big })],
        ["application/x-www-form-urlencoded", `title=${big}`],
        [
          "multipart/form-data; boundary=Zz",
          `--Zz\r\nContent-Disposition: form-data; name="title"\r\n\r\n${big}\r\n--Zz--\r\n`,
        ],
      ];
      for (const [type, text] of bodies) {
        const declared = await call(
          new Request(`${ORIGIN}${path}`, {
            method,
            headers: { ...ADMIN, "content-type": type },
            body: text,
          }),
        );
        expect(declared.status, type).toBe(413);
        expect(declared.body).toMatchObject({
          code: "rest_payload_too_large",
          data: { status: 413 },
        });
        // No Content-Length: the body arrives as a stream and is cut off while it is read.
        const stream = new ReadableStream({
          start(controller) {
            const bytes = new TextEncoder().encode(text);
            for (let i = 0; i < bytes.length; i += 65536)
              controller.enqueue(bytes.slice(i, i + 65536));
            controller.close();
          },
        });
        const streamed = await call(
          new Request(`${ORIGIN}${path}`, {
            method,
            headers: { ...ADMIN, "content-type": type },
            body: stream,
            duplex: "half",
          } as RequestInit),
        );
        expect(streamed.status, `${type} streamed`).toBe(413);
      }
      expect(await contentDigest()).toBe(before);
    },
  );

  it("accepts a body of exactly 1 MiB", async () => {
    const overhead = JSON.stringify({
      title: "",
      start_date: "2027-01-01 10:00:00",
      end_date: "2027-01-01 11:00:00",
      excerpt: "",
    }).length;
    const body = JSON.stringify({
      title: "Big",
      start_date: "2027-01-01 10:00:00",
      end_date: "2027-01-01 11:00:00",
      excerpt: "e".repeat(MAX_BODY_BYTES - overhead - 3),
    });
    expect(new TextEncoder().encode(body).length).toBe(MAX_BODY_BYTES);
    const res = await api(`${NS}/events`, {
      method: "POST",
      body,
      headers: { ...ADMIN, "content-type": "application/json" },
    });
    expect(res.status).toBe(201);
  });
});

describe("query strings over 8192 characters → 414", () => {
  it("on every route that reads its parameters, at the limit still answered", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const paths = [
      `${NS}/events`,
      `${NS}/events/${id}`,
      `${NS}/venues`,
      `${NS}/organizers`,
      `${NS}/categories`,
      `${NS}/tags`,
      `${NS}/events.ics`,
      `${NS}/`,
      "/wp-json/wp/v2/users",
    ];
    for (const path of paths) {
      const over = `zz=${"q".repeat(MAX_QUERY_CHARS)}`;
      const res = await api(`${path}?${over}`, { headers: ADMIN });
      expect(res.status, path).toBe(414);
      expect(res.body).toMatchObject({ code: "rest_uri_too_long", data: { status: 414 } });
      const at = `zz=${"q".repeat(MAX_QUERY_CHARS - 4)}`;
      expect((await api(`${path}?${at}`, { headers: ADMIN })).status, path).toBeLessThan(400);
    }
  });
});

describe("per_page is clamped (contract §4 row 1)", () => {
  it("to PER_PAGE_MAX on every archive, echoed as served", async () => {
    for (let i = 0; i < 3; i++) {
      await seedEvent({
        title: `E${i}`,
        start: day(1),
        termIds: [await seedTerm("tribe_events_cat", `C${i}`), await seedTerm("post_tag", `T${i}`)],
      });
      await seedVenue({ title: `V${i}` });
      await seedOrganizer({ title: `O${i}` });
    }
    for (const base of ["events", "venues", "organizers", "categories", "tags"]) {
      const res = await api(`${NS}/${base}?per_page=100000`);
      expect(res.status, base).toBe(200);
      expect(new URL(res.body.rest_url).searchParams.get("per_page"), base).toBe("50");
    }
    const huge = await api(
      `${NS}/events?per_page=${Number.MAX_SAFE_INTEGER}&page=${Number.MAX_SAFE_INTEGER}`,
    );
    expect(huge.status).toBe(404);
    expect(huge.body.code).toBe("event-archive-page-not-found");
    expect((await api(`/wp-json/wp/v2/users?per_page=101`, { headers: ADMIN })).status).toBe(400);
  });
});

describe("search strings are capped and FTS5 syntax is always quoted", () => {
  it(`reads at most ${MAX_SEARCH_CHARS} characters of a search`, async () => {
    await seedEvent({ title: "needle", start: day(1) });
    const far = `${"zzz ".repeat(MAX_SEARCH_CHARS / 4)}needle`;
    const res = await api(`${NS}/events?search=${encodeURIComponent(far)}`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(0);
    for (const base of ["events", "venues", "organizers"])
      expect((await api(`${NS}/${base}?search=${"long".repeat(1900)}`)).status).toBe(200);
  });

  it("treats FTS5 operators, column filters, quotes and wildcards as text", async () => {
    const id = await seedEvent({
      title: 'Jazz "Night" OR NEAR(x y) title:z a*b ^c',
      start: day(1),
    });
    await seedEvent({ title: "Jazz", start: day(1) });
    const venue = await seedVenue({ title: 'Hall "A" OR NEAR(b c)', city: "title:z" });
    const cases: Array<[string, number[]]> = [
      ['"Night" OR', [id]],
      ["NEAR(x", [id]],
      ["title:z", [id]],
      ["a*b", [id]],
      ["^c", [id]],
      ["OR", [id]],
      ["NOT", []],
      ['"', [id]],
      ["*", [id]],
      ["title:", [id]],
      ["AND OR NOT", []],
    ];
    for (const [q, ids] of cases) {
      const res = await api(`${NS}/events?search=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      expect(
        res.body.events.map((e: { id: number }) => e.id),
        q,
      ).toEqual(ids);
    }
    for (const q of ['"A" OR', "NEAR(b", "title:z", "city : x", "{title} : a", "*", '"']) {
      const res = await api(`${NS}/venues?search=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
    }
    expect(
      (await api(`${NS}/venues?search=${encodeURIComponent("NEAR(b")}`)).body.venues.map(
        (v: { id: number }) => v.id,
      ),
    ).toEqual([venue]);
  });
});

describe("PHP bracket abuse is bounded", () => {
  it("thousands of keys, deep brackets, huge indices and prototype keys neither fail nor pollute", async () => {
    await seedEvent({ title: "E", start: day(1) });
    const many = Array.from({ length: 1500 }, (_, i) => `${i.toString(36)}`).join("&");
    expect(many.length).toBeLessThan(8192);
    expect((await api(`${NS}/events?${many}`)).status).toBe(200);
    expect((await api(`${NS}/events?${many}&per_page=-1`)).status).toBe(200); // past qs's 1000 parameters: not read
    expect((await api(`${NS}/events?a${"[b]".repeat(500)}=1`)).status).toBe(200);
    expect((await api(`${NS}/events?include[999999999]=1`)).status).toBeLessThan(500);
    for (const q of [
      "__proto__[per_page]=1",
      "constructor[prototype][x]=1",
      "categories[__proto__]=x",
      "per_page[]=1&per_page[]=2",
    ]) {
      const res = await api(`${NS}/events?${q}`);
      expect(res.status, q).toBeLessThan(500);
      expect(({} as Record<string, unknown>).x, q).toBeUndefined();
    }
    const deep = `{"title": ${"[".repeat(100_000)}${"]".repeat(100_000)}, "start_date": "2027-01-01", "end_date": "2027-01-01"}`;
    const res = await api(`${NS}/events`, {
      method: "POST",
      body: deep,
      headers: { ...ADMIN, "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, i])),
    );
    expect(
      (
        await api(`${NS}/events`, {
          method: "POST",
          body: wide,
          headers: { ...ADMIN, "content-type": "application/json" },
        })
      ).status,
    ).toBe(400);
  });
});
