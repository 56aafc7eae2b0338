/**
 * The plain-text URL and e-mail fields hold no markup. WordPress stores an
 * organizer's e-mail through `sanitize_email` and a website through `esc_url_raw`, which drop what
 * an address or a URL cannot hold (`"`, `<`, `>`, blanks, …); here a value those would change is
 * refused — 400 `rest_invalid_param` naming the field (or the `venue`/`organizer` holding it), and
 * nothing is written — for every role, on creates and updates of events, venues and organizers, and
 * for image URLs (`image`, the media library's `source_url`).
 */
import { describe, expect, it } from "vitest";
import { ADMIN, type ApiResponse, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedUser } from "../support/factories";

const BAD_EMAILS = [
  'a@b.example"><script>alert(1)</script>',
  "a@b.example<img src=x onerror=alert(1)>",
  "<script>@b.example",
  "a b@example.com",
  "a@b@example.com",
  "a@exa mple.com",
  "a@example..com",
  "a@-example.com",
  "a@localhost",
  "not an address",
];

const BAD_WEBSITES = [
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

describe("plain-text e-mail and URL fields refuse markup", () => {
  it("organizer e-mails, alone and given with an event, from authors, contributors and administrators", async () => {
    const headersOf = {
      author: (await seedUser("author")).headers,
      contributor: (await seedUser("contributor")).headers,
      administrator: ADMIN,
    };
    for (const [role, headers] of Object.entries(headersOf)) {
      for (const email of BAD_EMAILS) {
        const what = `${role} ${email}`;
        expectInvalid(
          await api(`${NS}/organizers`, { json: { organizer: "Crew", email }, headers }),
          "email",
          what,
        );
        expectInvalid(
          await api(`${NS}/events`, {
            json: event({ organizer: { organizer: "Crew", email } }),
            headers,
          }),
          "organizer",
          what,
        );
      }
    }
    const all = await api(`${NS}/organizers?status=publish,draft,pending`, { headers: ADMIN });
    expect(all.body.total).toBe(0);
    expect((await api(`${NS}/events`, { headers: ADMIN })).body.total).toBe(0);
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

  it("updates refuse them too and change nothing; good values are kept as sent", async () => {
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
    expect(created.body.email).toBe("Arts.Council+events@Example.co.uk");
    expect(created.body.website).toBe("https://arts.example/path/?q=1&r=a,b;c#part");
    const id = created.body.id;
    expectInvalid(
      await api(`${NS}/organizers/${id}`, {
        method: "PATCH",
        json: { email: BAD_EMAILS[0] },
        headers: author.headers,
      }),
      "email",
      "update email",
    );
    expectInvalid(
      await api(`${NS}/organizers/${id}`, {
        method: "PATCH",
        json: { website: BAD_WEBSITES[0] },
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
