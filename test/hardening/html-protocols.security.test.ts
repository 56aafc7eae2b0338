/**
 * No URL in the HTML of authors and contributors reaches a browser with a scheme
 * WordPress does not allow (`wp_allowed_protocols`), however it is spelled — entities, entities of
 * entities, mixed case, blanks and control characters inside or before the scheme, `data:`,
 * `vbscript:` — in any filtered field: event titles, descriptions and excerpts; venue and organizer
 * names, descriptions and excerpts (given alone or with an event); category and tag names and
 * descriptions.
 *
 * What a user would notice is what the browser does with the served HTML, so each URL attribute of
 * the answer is read as a browser reads it: the attribute's character references decoded once
 * (HTML attribute rules) and the result parsed as a URL against the page.
 */
import { decodeHTMLAttribute } from "entities";
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedUser } from "../support/factories";

/** The published XSS filter-evasion vectors for a link's scheme. */
const VECTORS = [
  "javascript&#38;#58;alert(document.domain)",
  "javascript&#x26;#x3a;alert(1)",
  "&#38;#106;avascript&#38;#58;alert(1)",
  "javascript&#38;colon;alert(1)",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "\u0001javascript:alert(1)",
  "&#14;  javascript:alert(1)",
  "jav\tascript:alert(1)",
  "jav&#x09;ascript:alert(1)",
  "jav&#x0A;ascript:alert(1)",
  "jav&#x0D;ascript:alert(1)",
  "jav&Tab;ascript:alert(1)",
  "java&NewLine;script:alert(1)",
  "javascript&colon;alert(1)",
  "javascript&#58;alert(1)",
  "javascript&#x3a;alert(1)",
  "javascript&#X3A;alert(1)",
  "javascript&#0000058alert(1)",
  "&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)",
  "&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)",
  "&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;alert(1)",
  "&#0000106avascript:alert(1)",
  "javajavascript:script:alert(1)",
  "javascript:javascript:alert(1)",
  "vbscript:msgbox(1)",
  "VBScript&#58;msgbox(1)",
  "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
  "data&#58;text/html,<script>alert(1)</script>",
  "livescript:alert(1)",
];

/** Every `wp_allowed_protocols()` scheme, as the URL parser names it. */
const ALLOWED = new Set(
  "http https ftp ftps mailto news irc irc6 ircs gopher nntp feed telnet mms rtsp sms svn tel fax xmpp webcal urn"
    .split(" ")
    .map((scheme) => `${scheme}:`),
);

/** Attributes whose value a browser follows or loads as a URL. */
const URL_ATTRIBUTES = new Set(["href", "src", "cite", "poster", "longdesc", "usemap", "action"]);

/** `name="value"`, `name='value'` and `name=value` inside the tags of `html`. */
function attributes(html: string): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = [];
  for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
    const pairs = /\s([^\s"'>/=]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
    for (const m of tag.matchAll(pairs)) {
      found.push({ name: m[1].toLowerCase(), value: m[2] ?? m[3] ?? m[4] ?? "" });
    }
  }
  return found;
}

/** The URLs of `html` whose scheme a browser would run or load although WordPress refuses it. */
function badUrls(html: string): string[] {
  const bad: string[] = [];
  for (const { name, value } of attributes(html)) {
    const decoded = decodeHTMLAttribute(value);
    const urls = URL_ATTRIBUTES.has(name)
      ? [decoded]
      : name === "srcset"
        ? decoded.split(",").map((candidate) => candidate.trim().split(/\s+/)[0] ?? "")
        : [];
    for (const url of urls) {
      let scheme: string;
      try {
        scheme = new URL(url, "https://calendar.test/event/some-event/").protocol;
      } catch {
        continue; // not a URL: a browser follows nothing
      }
      if (!ALLOWED.has(scheme)) bad.push(`${name}="${value}"`);
    }
  }
  return bad;
}

/** Post HTML carrying `url` in every URL attribute WordPress's post list allows. */
const postHtml = (url: string) =>
  `<p><a href="${url}">a</a><a href='${url}'>b</a><img src="${url}" srcset="${url} 2x, https://ok.example/i.png 1x">` +
  `<video poster="${url}" src="${url}"></video><audio src="${url}"></audio><blockquote cite="${url}">q</blockquote>` +
  `<q cite="${url}">q</q><ins cite="${url}">i</ins><del>d</del><map name="m"><area href="${url}"></map>` +
  `<img src="https://ok.example/x.png" longdesc="${url}" usemap="${url}"></p>`;

/** Data HTML (titles, names, term descriptions) carrying `url` where `$allowedtags` takes one. */
const dataHtml = (url: string) =>
  `<a href="${url}" title="t">a</a> <blockquote cite="${url}">b</blockquote> <q cite="${url}">c</q>`;

/** All vectors in one text: each request carries every one of them. */
const all = (html: (url: string) => string) => VECTORS.map(html).join("\n");

/** The filtered fields of an event answer, by name. */
function eventFields(body: any): Record<string, string> {
  const organizer = body.organizer?.[0] ?? {};
  return {
    title: body.title,
    description: body.description,
    excerpt: body.excerpt,
    "venue.venue": body.venue?.venue,
    "venue.description": body.venue?.description,
    "venue.excerpt": body.venue?.excerpt,
    "organizer.organizer": organizer.organizer,
    "organizer.description": organizer.description,
    "organizer.excerpt": organizer.excerpt,
  };
}

/** Field → the URLs in it a browser would follow with a refused scheme (only fields with some). */
function findings(fields: Record<string, string>): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(fields)
      .map(([field, html]) => [field, badUrls(html ?? "")] as const)
      .filter(([, bad]) => bad.length > 0),
  );
}

describe("URL schemes in filtered HTML (WordPress wp_kses_bad_protocol)", () => {
  it("the reader of the test sees what a browser sees: an entity-encoded javascript: link is caught", () => {
    expect(badUrls('<a href="javascript&#58;alert(document.domain)">Tickets</a>')).toHaveLength(1);
    expect(badUrls('<a href="javascript&#38;#58;alert(1)">Tickets</a>')).toEqual([]);
    expect(badUrls('<a href="https://ok.example/?a=1&amp;b=2">ok</a>')).toEqual([]);
  });

  for (const role of ["author", "contributor"] as const) {
    it(`${role}s: events with their venue and organizer, in the answer and as stored`, async () => {
      const user = await seedUser(role, `${role}-protocols`);
      const created = await api(`${NS}/events`, {
        json: {
          title: `Tickets ${all(dataHtml)}`,
          start_date: day(2),
          end_date: day(2, "11:00:00"),
          description: all(postHtml),
          excerpt: all(postHtml),
          venue: { venue: `Hall ${all(dataHtml)}`, description: all(postHtml) },
          organizer: { organizer: `Crew ${all(dataHtml)}`, description: all(postHtml) },
        },
        headers: user.headers,
      });
      expect(created.status).toBe(201);
      expect(findings(eventFields(created.body))).toEqual({});
      const stored = await api(`${NS}/events/${created.body.id}`, { headers: ADMIN });
      expect(findings(eventFields(stored.body))).toEqual({});
      // What is allowed survives the filter.
      expect(created.body.description).toContain('<img src="https://ok.example/x.png"');

      const updated = await api(`${NS}/events/${created.body.id}`, {
        method: "PATCH",
        json: { description: all(postHtml), excerpt: all(postHtml), title: all(dataHtml) },
        headers: user.headers,
      });
      expect(updated.status).toBe(200);
      expect(findings(eventFields(updated.body))).toEqual({});
    });

    it(`${role}s: venues and organizers, created and updated`, async () => {
      const user = await seedUser(role, `${role}-linked`);
      for (const [plural, kind] of [
        ["venues", "venue"],
        ["organizers", "organizer"],
      ] as const) {
        const created = await api(`${NS}/${plural}`, {
          json: {
            [kind]: `Place ${all(dataHtml)}`,
            description: all(postHtml),
            excerpt: all(postHtml),
          },
          headers: user.headers,
        });
        expect(created.status, plural).toBe(201);
        const fields = (body: any) => ({
          [kind]: body[kind],
          description: body.description,
          excerpt: body.excerpt,
        });
        expect(findings(fields(created.body)), plural).toEqual({});
        const updated = await api(`${NS}/${plural}/${created.body.id}`, {
          method: "PATCH",
          json: { [kind]: all(dataHtml), description: all(postHtml), excerpt: all(postHtml) },
          headers: user.headers,
        });
        expect(updated.status, plural).toBe(200);
        expect(findings(fields(updated.body)), plural).toEqual({});
        const stored = await api(`${NS}/${plural}/${created.body.id}`, { headers: ADMIN });
        expect(findings(fields(stored.body)), plural).toEqual({});
      }
    });
  }

  it("authors: category names and descriptions, created and updated", async () => {
    const author = await seedUser("author");
    const fields = (body: any) => ({ name: body.name, description: body.description });
    let id = 0;
    // Names hold at most 200 characters: one vector per category.
    for (const [i, url] of VECTORS.entries()) {
      const created = await api(`${NS}/categories`, {
        json: { name: `<a href="${url}">Jazz ${i}</a>`, description: dataHtml(url) },
        headers: author.headers,
      });
      expect(created.status, url).toBe(201);
      expect(findings(fields(created.body)), url).toEqual({});
      id = created.body.id;
    }
    const updated = await api(`${NS}/categories/${id}`, {
      method: "PATCH",
      json: { description: all(dataHtml) },
      headers: author.headers,
    });
    expect(updated.status).toBe(200);
    expect(findings(fields(updated.body))).toEqual({});
    const stored = await api(`${NS}/categories?hide_empty=false&per_page=50`);
    expect(stored.body.categories).toHaveLength(VECTORS.length);
    expect(stored.body.categories.flatMap((t: any) => Object.values(findings(fields(t))))).toEqual(
      [],
    );
  });

  it("authors: categories and tags created by name with an event", async () => {
    const author = await seedUser("author");
    const names = VECTORS.filter((v) => !v.includes(",")).map(
      (v, i) => `<a href="${v}">name ${i}</a>`,
    );
    const res = await api(`${NS}/events`, {
      json: {
        title: "Tagged",
        start_date: day(3),
        end_date: day(3, "11:00:00"),
        categories: names,
        tags: names,
      },
      headers: author.headers,
    });
    expect(res.status).toBe(201);
    const terms = [...res.body.categories, ...res.body.tags];
    expect(terms).toHaveLength(names.length * 2);
    expect(terms.flatMap((t: any) => badUrls(t.name))).toEqual([]);
  });

  it("allowed and relative URLs are kept as sent", async () => {
    const author = await seedUser("author");
    const html =
      '<p><a href="https://ok.example/?a=1&amp;b=2#x:y">a</a> <a href="mailto:someone@example.com">m</a> ' +
      '<a href="/events/category/jazz/">r</a> <a href="#top">t</a> <a href="tel:+15551234">p</a> ' +
      '<img src="https://ok.example/i.png" srcset="https://ok.example/i.png 1x, /i-2x.png 2x"></p>';
    const res = await api(`${NS}/venues`, {
      json: { venue: "Kept", description: html },
      headers: author.headers,
    });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe(html);
  });

  it("editors and administrators keep their HTML (WordPress unfiltered_html)", async () => {
    const editor = await seedUser("editor");
    for (const headers of [editor.headers, ADMIN]) {
      const html = '<p><a href="javascript:alert(1)">run</a></p>';
      const res = await api(`${NS}/venues`, {
        json: { venue: `V ${Math.random()}`, description: html },
        headers,
      });
      expect(res.status).toBe(201);
      expect(res.body.description).toBe(html);
    }
  });
});
