/**
 * Text a write stores is valid Unicode (contract §5): a JSON string with a lone UTF-16 surrogate
 * escape (`"\ud800"`, in a value or a key, at any depth), a urlencoded body or a write's query
 * string whose percent-escapes do not decode as UTF-8 (`%FF`, `%C3%28`, the surrogate `%ED%A0%80`),
 * and a multipart text field whose bytes are not UTF-8 are refused with 400 in the WordPress
 * envelope, naming the parameter, and nothing is stored — for events, venues, organizers,
 * categories and tags, created or updated. Text that is valid stays as sent.
 */
import { describe, expect, it } from "vitest";
import { contentDigest } from "../hardening/support/digest";
import { ADMIN, type ApiInit, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedOrganizer, seedTerm, seedVenue } from "../support/factories";

const EVENT = { start_date: day(3), end_date: day(3, "11:00:00") };
const FORM = "application/x-www-form-urlencoded";

/** A request of `method` with `body` as sent (no re-encoding), as an administrator. */
const raw = (method: string, type: string, body: BodyInit): ApiInit => ({
  method,
  body,
  headers: { ...ADMIN, "content-type": type },
});

/** A JSON text with the given source (escapes as written: `\\ud800` is JSON's `\ud800`). */
const json = (method: string, text: string) => raw(method, "application/json", text);

/** A multipart body of text fields, each value given as bytes. */
function multipart(fields: Array<[string, Uint8Array]>): ApiInit {
  const enc = new TextEncoder();
  const chunks: number[] = [];
  for (const [name, value] of fields) {
    chunks.push(
      ...enc.encode(`--Bnd\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
      ...value,
      ...enc.encode("\r\n"),
    );
  }
  chunks.push(...enc.encode("--Bnd--\r\n"));
  return raw("POST", "multipart/form-data; boundary=Bnd", new Uint8Array(chunks));
}
const utf8 = (text: string) => new TextEncoder().encode(text);

/** What every list shows an administrator (any status), for "nothing was created". */
async function everything() {
  const lists: Record<string, unknown> = {};
  for (const path of ["events?status=any", "venues?status=any", "organizers?status=any"]) {
    lists[path] = (await api(`${NS}/${path}`, { headers: ADMIN })).body;
  }
  for (const path of ["categories?hide_empty=false", "tags?hide_empty=false"]) {
    lists[path] = (await api(`${NS}/${path}`, { headers: ADMIN })).body;
  }
  return lists;
}

/**
 * Sends each request and expects it refused as `code` naming `params`, with the database and what
 * an administrator can read unchanged.
 */
async function expectRefused(
  cases: Array<[path: string, init: ApiInit, params: string[]]>,
  code = "rest_invalid_param",
) {
  const digest = await contentDigest();
  const visible = await everything();
  for (const [path, init, params] of cases) {
    const res = await api(path, init);
    const label = `${init.method} ${path} ${String(init.body).slice(0, 80)}`;
    expect(res.status, label).toBe(400);
    expect(res.body.code, label).toBe(code);
    expect(res.body.data.status, label).toBe(400);
    expect(Object.keys(res.body.data.params ?? {}).sort(), label).toEqual(params);
  }
  expect(await contentDigest()).toBe(digest);
  expect(await everything()).toEqual(visible);
}

describe("JSON bodies: a lone surrogate escape is PHP's JSON_ERROR_UTF16", () => {
  it("anywhere in an event create (value, nested value, list item, key): 400 rest_invalid_json, nothing stored", async () => {
    const e = JSON.stringify(EVENT).slice(1, -1);
    await expectRefused(
      [
        [`${NS}/events`, json("POST", `{"title":"\\ud800",${e}}`), ["title"]],
        [`${NS}/events`, json("POST", `{"title":"Jazz \\udfff night",${e}}`), ["title"]],
        [
          `${NS}/events`,
          json("POST", `{"title":"ok","description":"<p>\\udc00\\ud800</p>",${e}}`),
          ["description"],
        ],
        [
          `${NS}/events`,
          json("POST", `{"title":"ok","venue":{"venue":"Hall \\ud83d"},${e}}`),
          ["venue"],
        ],
        [`${NS}/events`, json("POST", `{"title":"ok","tags":["a","\\ude00"],${e}}`), ["tags"]],
        [
          `${NS}/events`,
          json("POST", `{"title":"ok","organizer":[{"\\ud800":"x"}],${e}}`),
          ["organizer"],
        ],
        [`${NS}/events`, json("POST", `{"\\udbff":"x","title":"ok",${e}}`), ["\\udbff"]],
      ],
      "rest_invalid_json",
    );
    const res = await api(`${NS}/events`, json("POST", `{"title":"\\ud800",${e}}`));
    expect(res.body).toMatchObject({
      code: "rest_invalid_json",
      message: "Invalid JSON body passed.",
      data: {
        status: 400,
        json_error_code: 10,
        json_error_message: "Single unpaired UTF-16 surrogate in unicode escape",
        params: { title: "title is not valid UTF-8 text." },
      },
    });
  });

  it("venues, organizers, categories and tags, created or updated: refused, nothing changed", async () => {
    const venue = await seedVenue({ title: "Blue Hall" });
    const organizer = await seedOrganizer({ title: "Jazz Club" });
    const category = await seedTerm("tribe_events_cat", "Concerts");
    const tag = await seedTerm("post_tag", "jazz");
    await expectRefused(
      [
        [`${NS}/venues`, json("POST", '{"venue":"Caf\\ud800"}'), ["venue"]],
        [`${NS}/venues/${venue}`, json("POST", '{"city":"\\udfffBerlin"}'), ["city"]],
        [`${NS}/organizers`, json("POST", '{"organizer":"Org","phone":"\\ud800"}'), ["phone"]],
        [
          `${NS}/organizers/${organizer}`,
          json("PUT", '{"description":"a\\udc00"}'),
          ["description"],
        ],
        [
          `${NS}/categories`,
          json("POST", '{"name":"Talks","description":"\\ud800"}'),
          ["description"],
        ],
        [`${NS}/categories/${category}`, json("POST", '{"name":"\\udfff"}'), ["name"]],
        [`${NS}/tags`, json("POST", '{"name":"x\\ud800y"}'), ["name"]],
        [`${NS}/tags/${tag}`, json("PUT", '{"slug":"\\udc00"}'), ["slug"]],
      ],
      "rest_invalid_json",
    );
  });

  it("a surrogate pair is one character and is stored; so is U+FFFD sent as such", async () => {
    const res = await api(`${NS}/venues`, json("POST", '{"venue":"Jazz \\ud83c\\udfb7 \\ufffd"}'));
    expect(res.status).toBe(201);
    expect(res.body.venue).toBe("Jazz 🎷 \ufffd");
  });

  it("the message is in the request's language", async () => {
    const res = await api(`/de${NS}/venues`, json("POST", '{"venue":"\\ud800"}'));
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ venue: "venue ist kein gültiger UTF-8-Text." });
  });
});

describe("urlencoded bodies and the query string of a write: percent-escapes must decode as UTF-8", () => {
  it("events: a value or a nested value whose escapes are not UTF-8 is 400 naming the parameter", async () => {
    const dates = `start_date=${encodeURIComponent(EVENT.start_date)}&end_date=${encodeURIComponent(EVENT.end_date)}`;
    await expectRefused([
      [`${NS}/events`, raw("POST", FORM, `title=%FF&${dates}`), ["title"]],
      [`${NS}/events`, raw("POST", FORM, `title=Caf%E9&${dates}`), ["title"]],
      [`${NS}/events`, raw("POST", FORM, `title=ok&description=%C3%28&${dates}`), ["description"]],
      [`${NS}/events`, raw("POST", FORM, `title=ok&venue[venue]=%ED%A0%80&${dates}`), ["venue"]],
      [`${NS}/events`, raw("POST", FORM, `title=ok&tags[]=a&tags[]=%F0%9F&${dates}`), ["tags"]],
      [`${NS}/events?title=%FF`, json("POST", JSON.stringify(EVENT)), ["title"]],
      [
        `${NS}/events?excerpt=%80`,
        json("POST", JSON.stringify({ title: "ok", ...EVENT })),
        ["excerpt"],
      ],
    ]);
  });

  it("venues, organizers, categories and tags, created or updated: refused, nothing changed", async () => {
    const venue = await seedVenue({ title: "Blue Hall" });
    const organizer = await seedOrganizer({ title: "Jazz Club" });
    const category = await seedTerm("tribe_events_cat", "Concerts");
    const tag = await seedTerm("post_tag", "jazz");
    await expectRefused([
      [`${NS}/venues`, raw("POST", FORM, "venue=Caf%E9"), ["venue"]],
      [`${NS}/venues/${venue}`, raw("POST", FORM, "city=%FFBerlin"), ["city"]],
      [`${NS}/venues/${venue}?address=%FE`, json("PUT", "{}"), ["address"]],
      [
        `${NS}/organizers`,
        raw("POST", FORM, "organizer=Org&email=a%C0%AF%40example.com"),
        ["email"],
      ],
      [`${NS}/organizers/${organizer}`, raw("PUT", FORM, "organizer=%ED%BF%BF"), ["organizer"]],
      [`${NS}/categories`, raw("POST", FORM, "name=Talks&description=%FF"), ["description"]],
      [`${NS}/categories/${category}`, raw("POST", FORM, "name=%E2%82"), ["name"]],
      [`${NS}/tags`, raw("POST", FORM, "name=%F8%88%80%80%80"), ["name"]],
      [`${NS}/tags/${tag}`, raw("PUT", FORM, "slug=x%FF"), ["slug"]],
    ]);
  });

  it("a key whose escapes are not UTF-8 is named as sent", async () => {
    await expectRefused([[`${NS}/venues`, raw("POST", FORM, "venue=Hall&x%FF[a]=1"), ["x%FF"]]]);
  });

  it("valid escapes, '+' and a stray '%' stay as WordPress reads them", async () => {
    const res = await api(`${NS}/venues`, raw("POST", FORM, "venue=Caf%C3%A9+100%&city=%E2%82%AC"));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ venue: "Café 100%", city: "€" });
  });

  it("reads keep their query strings as before: a list filtered by such a search finds nothing", async () => {
    const res = await api(`${NS}/venues?search=%FF`);
    expect(res.status).toBe(200);
    expect(res.body.venues ?? []).toEqual([]);
  });
});

describe("multipart bodies: a text field's bytes must be UTF-8", () => {
  it("a field with bytes that are not UTF-8 is 400 naming it, for every resource; nothing stored", async () => {
    const venue = await seedVenue({ title: "Blue Hall" });
    const bad = new Uint8Array([0x43, 0x61, 0x66, 0xe9]); // "Caf" + Latin-1 é
    const surrogate = new Uint8Array([0xed, 0xa0, 0x80]); // U+D800 written as UTF-8
    await expectRefused([
      [
        `${NS}/events`,
        multipart([
          ["title", bad],
          ["start_date", utf8(EVENT.start_date)],
          ["end_date", utf8(EVENT.end_date)],
        ]),
        ["title"],
      ],
      [
        `${NS}/venues`,
        multipart([
          ["venue", utf8("ok")],
          ["city", surrogate],
        ]),
        ["city"],
      ],
      [`${NS}/venues/${venue}`, { ...multipart([["venue[x]", bad]]), method: "PUT" }, ["venue"]],
      [`${NS}/organizers`, multipart([["organizer", bad]]), ["organizer"]],
      [`${NS}/categories`, multipart([["name", bad]]), ["name"]],
      [
        `${NS}/tags`,
        multipart([
          ["name", utf8("t")],
          ["description", surrogate],
        ]),
        ["description"],
      ],
    ]);
  });

  it("valid text is stored as sent, percent signs included (multipart values are not percent-encoded)", async () => {
    const res = await api(
      `${NS}/venues`,
      multipart([
        ["venue", utf8("Café %FF")],
        ["city", utf8("€")],
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ venue: "Café %FF", city: "€" });
  });
});
