/**
 * Plain-text fields take any string, as TEC's `is_string_or_empty` does (contract §4, issue 33): an
 * organizer's `email` ("info at example dot org"), a `phone`, an address. Markup in them is
 * neutralized as TEC's `tec_sanitize_string` does (tags removed, `&`, `<`, `>` encoded), never
 * refused, for every role, on creates and updates, alone and given with an event.
 *
 * URL fields hold no markup: WordPress stores a website through `esc_url_raw`, which drops what a
 * URL cannot hold (`"`, `<`, `>`, blanks, …); here a value it would change is refused — 400
 * `rest_invalid_param` naming the field (or the `venue`/`organizer` holding it), and nothing is
 * written — for events, venues and organizers, and for image URLs (`image`, the media library's
 * `source_url`).
 */
import { describe, expect, it } from "vitest";
import { ADMIN, type ApiResponse, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedUser } from "../support/factories";

/** What clients of the original send, and what TEC 6.17 stores and answers for it. */
const PLAIN: Array<[sent: string, stored: string]> = [
  ["info at example dot org", "info at example dot org"],
  ["Arts.Council+events@Example.co.uk", "Arts.Council+events@Example.co.uk"],
  ['a@b.example"><script>alert(1)</script>', 'a@b.example"&gt;alert(1)'],
  ["a@b.example<img src=x onerror=alert(1)>", "a@b.example"],
  ["<b>Box office</b> & front desk", "Box office &amp; front desk"],
  ["Rock &amp; Roll  Hall ", "Rock &amp; Roll Hall"],
  ["+1 (555) 010-0199 ext. 7", "+1 (555) 010-0199 ext. 7"],
  ["1 < 2", "1 &lt; 2"],
];

const BAD_WEBSITES = [
  "javascript:alert(1)",
  "javascript://ok.example/%0Aalert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript://ok.example/x",
  "www.example.org",
  "/relative/path",
  'https://ok.example/"><script>alert(1)</script>',
  "https://ok.example/<img src=x onerror=alert(1)>",
  "https://ok.example/a?b=<c>",
  "https://ok.example/`x`",
  "https://ok.example/{x}",
  "https://ok.example/a\\b",
  "https://ok.example/%0d%0aSet-Cookie:%20x=1",
  "https://ok.example/%0A",
];

function expectInvalid(res: ApiResponse, param: string, what: string) {
  expect(res.status, what).toBe(400);
  expect(res.body.code, what).toBe("rest_invalid_param");
  expect(Object.keys(res.body.data.params), what).toEqual([param]);
}

const event = (over: Record<string, unknown>) => ({
  title: "Concert",
  start_date: day(4),
  end_date: day(4, "12:00:00"),
  ...over,
});

describe("plain-text fields take any string, URL fields refuse markup", () => {
  it("an organizer's e-mail and phone, alone and given with an event, from authors, contributors and administrators", async () => {
    const headersOf = {
      author: (await seedUser("author")).headers,
      contributor: (await seedUser("contributor")).headers,
      administrator: ADMIN,
    };
    let n = 0;
    for (const [role, headers] of Object.entries(headersOf)) {
      for (const [sent, stored] of PLAIN) {
        const what = `${role} ${sent}`;
        n += 1;
        const alone = await api(`${NS}/organizers`, {
          json: { organizer: `Crew ${n}`, email: sent, phone: sent },
          headers,
        });
        expect(alone.status, what).toBe(201);
        expect(alone.body.email, what).toBe(stored);
        expect(alone.body.phone, what).toBe(stored);
        const read = await api(`${NS}/organizers/${alone.body.id}`, { headers });
        expect(read.body.email, what).toBe(stored);
        const withEvent = await api(`${NS}/events`, {
          json: event({ organizer: { organizer: `Crew ${n} b`, email: sent } }),
          headers,
        });
        expect(withEvent.status, what).toBe(201);
        expect(withEvent.body.organizer[0].email, what).toBe(stored);
      }
    }
  });

  it("a venue's address fields and phone", async () => {
    const author = await seedUser("author");
    const fields = ["address", "city", "country", "province", "state", "zip", "phone"];
    for (const [i, [sent, stored]] of PLAIN.entries()) {
      const res = await api(`${NS}/venues`, {
        json: { venue: `Hall ${i}`, ...Object.fromEntries(fields.map((f) => [f, sent])) },
        headers: author.headers,
      });
      expect(res.status, sent).toBe(201);
      for (const f of fields) expect(res.body[f], `${f} ${sent}`).toBe(stored);
    }
  });

  it("a value read back and written again is unchanged", async () => {
    const created = await api(`${NS}/organizers`, {
      json: { organizer: "Arts Council", email: "<i>tickets</i> & info", phone: "A & B" },
      headers: ADMIN,
    });
    expect(created.body.email).toBe("tickets &amp; info");
    const again = await api(`${NS}/organizers/${created.body.id}`, {
      method: "PATCH",
      json: { email: created.body.email, phone: created.body.phone },
      headers: ADMIN,
    });
    expect(again.status).toBe(200);
    expect(again.body.email).toBe("tickets &amp; info");
    expect(again.body.phone).toBe("A &amp; B");
  });

  it("websites of events, venues and organizers, alone and given with an event", async () => {
    const author = await seedUser("author");
    for (const headers of [author.headers, ADMIN]) {
      for (const website of BAD_WEBSITES) {
        expectInvalid(
          await api(`${NS}/events`, { json: event({ website }), headers }),
          "website",
          `event ${website}`,
        );
        for (const [plural, kind] of [
          ["venues", "venue"],
          ["organizers", "organizer"],
        ]) {
          expectInvalid(
            await api(`${NS}/${plural}`, { json: { [kind]: "Place", website }, headers }),
            "website",
            `${plural} ${website}`,
          );
          expectInvalid(
            await api(`${NS}/events`, {
              json: event({ [kind]: { [kind]: "Place", website } }),
              headers,
            }),
            kind,
            `event's ${kind} ${website}`,
          );
        }
      }
    }
    expect((await api(`${NS}/events`, { headers: ADMIN })).body.total).toBe(0);
    expect((await api(`${NS}/venues`, { headers: ADMIN })).body.total).toBe(0);
  });

  it("websites TEC takes with a scheme WordPress allows are kept as sent", async () => {
    for (const website of [
      "ftp://files.example.org/programme.pdf",
      "mailto:tickets@example.org",
      "https://ok.example/path/?q=1&r=a,b;c#part",
    ]) {
      const venue = await api(`${NS}/venues`, {
        json: { venue: `Place ${website}`, website },
        headers: ADMIN,
      });
      expect(venue.status, website).toBe(201);
      expect(venue.body.website, website).toBe(website);
      const ev = await api(`${NS}/events`, { json: event({ website }), headers: ADMIN });
      expect(ev.status, website).toBe(201);
      expect(ev.body.website, website).toBe(website);
    }
  });

  it("image URLs, given to an event or to the media library", async () => {
    const author = await seedUser("author");
    for (const url of [
      'https://img.example/a"><script>alert(1)</script>.jpg',
      "https://img.example/a<b>.jpg",
      "https://img.example/%0d%0aa.jpg",
    ]) {
      expectInvalid(
        await api(`${NS}/events`, { json: event({ image: url }), headers: author.headers }),
        "image",
        `event image ${url}`,
      );
      const media = await api("/wp-json/wp/v2/media", {
        json: { source_url: url },
        headers: author.headers,
      });
      expectInvalid(media, "source_url", `media ${url}`);
    }
    const ok = await api("/wp-json/wp/v2/media", {
      json: { source_url: "https://img.example/photos/hall(1).jpg?w=300&h=200" },
      headers: author.headers,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.source_url).toBe("https://img.example/photos/hall(1).jpg?w=300&h=200");
  });

  it("updates refuse bad websites and change nothing; good values are kept as sent", async () => {
    const author = await seedUser("author");
    const created = await api(`${NS}/organizers`, {
      json: {
        organizer: "Arts Council",
        email: "Arts.Council+events@Example.co.uk",
        website: "https://arts.example/path/?q=1&r=a,b;c#part",
      },
      headers: author.headers,
    });
    expect(created.status).toBe(201);
    expect(created.body.website).toBe("https://arts.example/path/?q=1&r=a,b;c#part");
    const id = created.body.id;
    expectInvalid(
      await api(`${NS}/organizers/${id}`, {
        method: "PATCH",
        json: { website: BAD_WEBSITES[0], email: "changed" },
        headers: author.headers,
      }),
      "website",
      "update website",
    );
    const kept = await api(`${NS}/organizers/${id}`, { headers: author.headers });
    expect(kept.body.email).toBe("Arts.Council+events@Example.co.uk");
    expect(kept.body.website).toBe("https://arts.example/path/?q=1&r=a,b;c#part");
    // Empty still clears.
    const cleared = await api(`${NS}/organizers/${id}`, {
      method: "PATCH",
      json: { email: "" },
      headers: author.headers,
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.email).toBeUndefined();
  });
});
