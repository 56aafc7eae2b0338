/**
 * One HTML filter for every filtered field: the `style` attribute of what authors and contributors
 * write is reduced as WordPress's `safecss_filter_attr` reduces it — declarations with CSS escapes
 * (`\`), `expression(`, comments or other functions, a `url()` with a protocol WordPress does not
 * allow (`javascript:`, `data:`), and properties outside WordPress's list go; `url(https://…)` and
 * plain declarations stay; an attribute left with nothing goes — with the same result in an
 * event's, a venue's and an organizer's description and excerpt, whichever field comes first.
 * Editors and administrators keep their HTML (`unfiltered_html`).
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedUser } from "../support/factories";

/** `style` values as sent, and the paragraph WordPress keeps of `<p style="…">x</p>`. */
const CASES: Array<[style: string, kept: string]> = [
  ["background:u\\rl(javascript:alert(1))", "<p>x</p>"],
  ["background:u\rrl(javascript:alert(1))", "<p>x</p>"],
  ["background:\\75 rl(javascript:alert(1))", "<p>x</p>"],
  ["width:expression(alert(1))", "<p>x</p>"],
  ["background:url(javascript:alert(1))", "<p>x</p>"],
  ["background-image:url( 'JavaScript:alert(1)' )", "<p>x</p>"],
  ["background:url(&#106;avascript:alert(1))", "<p>x</p>"],
  ["background-image:url(data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)", "<p>x</p>"],
  ["behavior:url(https://ok.example/x.htc)", "<p>x</p>"],
  ["-moz-binding:url(https://ok.example/x.xml#xss)", "<p>x</p>"],
  ["color:red/**/", "<p>x</p>"],
  ["color:red;}body{background:red", '<p style="color:red">x</p>'],
  [
    "background:url(https://ok.example/a.png)",
    '<p style="background:url(https://ok.example/a.png)">x</p>',
  ],
  [
    "background-image:url('https://ok.example/a.png?a=1&amp;b=2')",
    `<p style="background-image:url('https://ok.example/a.png?a=1&amp;b=2')">x</p>`,
  ],
  ["color:red", '<p style="color:red">x</p>'],
  // WordPress keeps a blank declaration as an empty one (`;;`), and drops the last empty one.
  ["  color: red; ;margin:0 auto;  ", '<p style="color: red;;margin:0 auto">x</p>'],
  [
    "width:calc(100% - 2em);--gap:1rem;gap:var(--gap)",
    '<p style="width:calc(100% - 2em);--gap:1rem;gap:var(--gap)">x</p>',
  ],
  ["color:red&#59;background:url(javascript:alert(1))", '<p style="color:red">x</p>'],
  [
    "color:red;background:u\\rl(javascript:alert(1));position:fixed;behavior:url(x.htc);margin:0",
    '<p style="color:red;position:fixed;margin:0">x</p>',
  ],
];

const html = (style: string) => `<p style="${style}">x</p>`;

describe("style attributes in filtered HTML (WordPress safecss_filter_attr)", () => {
  for (const role of ["author", "contributor"] as const) {
    it(`${role}s: events, their venue and organizer — description and excerpt alike`, async () => {
      const user = await seedUser(role, `${role}-styles`);
      for (const [style, kept] of CASES) {
        const res = await api(`${NS}/events`, {
          json: {
            title: "Styles",
            start_date: day(2),
            end_date: day(2, "11:00:00"),
            description: html(style),
            excerpt: html(style),
            venue: { venue: `Hall ${style}`, description: html(style), excerpt: html(style) },
            organizer: [
              { organizer: `Org ${style}`, description: html(style), excerpt: html(style) },
            ],
          },
          headers: user.headers,
        });
        expect(res.status, style).toBe(201);
        const organizer = res.body.organizer[0];
        expect(
          {
            description: res.body.description,
            excerpt: res.body.excerpt,
            "venue.description": res.body.venue.description,
            "venue.excerpt": res.body.venue.excerpt,
            "organizer.description": organizer.description,
            "organizer.excerpt": organizer.excerpt,
          },
          style,
        ).toEqual({
          description: kept,
          excerpt: kept,
          "venue.description": kept,
          "venue.excerpt": kept,
          "organizer.description": kept,
          "organizer.excerpt": kept,
        });
        // As stored: a later read answers the same.
        const read = await api(`${NS}/events/${res.body.id}`, { headers: user.headers });
        expect([read.body.description, read.body.excerpt], style).toEqual([kept, kept]);
      }
    });
  }

  it("authors: venues and organizers written on their own, created and updated, in either field first", async () => {
    const { headers } = await seedUser("author", "author-linked-styles");
    for (const [kind, name] of [
      ["venues", "venue"],
      ["organizers", "organizer"],
    ] as const) {
      for (const [i, [style, kept]] of CASES.entries()) {
        const created = await api(`${NS}/${kind}`, {
          json: { [name]: `${name} ${i}`, excerpt: html(style), description: html(style) },
          headers,
        });
        expect(created.status, style).toBe(201);
        expect([created.body.description, created.body.excerpt], `${kind} ${style}`).toEqual([
          kept,
          kept,
        ]);
        const updated = await api(`${NS}/${kind}/${created.body.id}`, {
          json: { description: `${html(style)} `, excerpt: `${html(style)} ` },
          headers,
        });
        expect(updated.status, style).toBe(200);
        expect([updated.body.description, updated.body.excerpt], `${kind} ${style}`).toEqual([
          kept,
          kept,
        ]);
      }
    }
  });

  it("the same input twice in a row gives the same answer (no filter keeps state between fields)", async () => {
    const { headers } = await seedUser("author", "author-repeat");
    const style = "background:u\\rl(javascript:alert(1))";
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const res = await api(`${NS}/venues`, {
        json: { venue: `Repeat ${i}`, description: html(style), excerpt: html(style) },
        headers,
      });
      answers.push(res.body.description, res.body.excerpt);
    }
    expect(new Set(answers)).toEqual(new Set(["<p>x</p>"]));
  });

  it("editors and administrators keep their styles as sent (unfiltered_html)", async () => {
    const editor = await seedUser("editor", "editor-styles");
    const style = "background:u\\rl(https://ok.example/a.png);color:red";
    for (const headers of [editor.headers, ADMIN]) {
      const res = await api(`${NS}/events`, {
        json: {
          title: "Unfiltered",
          start_date: day(2),
          end_date: day(2, "11:00:00"),
          description: html(style),
          excerpt: html(style),
        },
        headers,
      });
      expect(res.status).toBe(201);
      expect([res.body.description, res.body.excerpt]).toEqual([html(style), html(style)]);
    }
  });
});
