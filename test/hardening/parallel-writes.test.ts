/**
 * Parallel writes all succeed or get a clear 4xx. Ids are reserved (never
 * max+1 guesses), slugs are decided inside the write batch, and find-or-create by name is guarded:
 * 50 parallel creates of each kind, with the same and with different names, all answer 201.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ADMIN, NS } from "../support/api";
import { day } from "../support/dates";
import { call, ORIGIN } from "./support/client";

const PARALLEL = 50;
const post = (path: string, body: unknown) =>
  call(
    new Request(`${ORIGIN}${NS}${path}`, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
const burst = (make: (i: number) => Promise<Awaited<ReturnType<typeof call>>>) =>
  Promise.all(Array.from({ length: PARALLEL }, (_, i) => make(i)));
const count = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: day(5),
  end_date: day(5, "11:00:00"),
  ...extra,
});

describe(`${PARALLEL} parallel creates of each kind`, () => {
  it("events with one title: all 201, distinct ids, slugs x, x-2, … with no gap in what was answered", async () => {
    const answers = await burst(() => post("/events", event("Rush Hour")));
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(answers.map((a) => a.body.id)).size).toBe(PARALLEL);
    const slugs = answers.map((a) => a.body.slug);
    expect(new Set(slugs).size).toBe(PARALLEL);
    expect(slugs).toContain("rush-hour");
    for (const slug of slugs) expect(slug).toMatch(/^rush-hour(-\d+)?$/);
    expect(await count("SELECT count(*) n FROM events")).toBe(PARALLEL);
  });

  it("events with different titles and the same requested slug", async () => {
    const answers = await burst((i) => post("/events", event(`Talk ${i}`, { slug: "talk" })));
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(answers.map((a) => a.body.slug)).size).toBe(PARALLEL);
  });

  for (const [plural, kind] of [
    ["venues", "venue"],
    ["organizers", "organizer"],
  ] as const) {
    it(`${plural} with one name: all 201 with the same one (contract §4 row 13); with different names: all created`, async () => {
      const same = await burst(() => post(`/${plural}`, { [kind]: "Same Name" }));
      expect(same.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
      expect(new Set(same.map((a) => a.body.id)).size).toBe(1);
      // Names that differ only in punctuation share a slug base.
      const different = await burst((i) =>
        post(`/${plural}`, { [kind]: `Hall ${"!".repeat(i + 1)}` }),
      );
      expect(different.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
      expect(new Set(different.map((a) => a.body.id)).size).toBe(PARALLEL);
      expect(new Set(different.map((a) => a.body.slug)).size).toBe(PARALLEL);
      expect(await count(`SELECT count(*) n FROM ${plural}`)).toBe(PARALLEL + 1);
    });
  }

  for (const plural of ["categories", "tags"] as const) {
    it(`${plural}: different names with one slug all 201; one name: one 201, the rest 400 term_exists`, async () => {
      const different = await burst((i) => post(`/${plural}`, { name: `Term ${i}`, slug: "term" }));
      expect(different.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
      expect(new Set(different.map((a) => a.body.id)).size).toBe(PARALLEL);
      expect(new Set(different.map((a) => a.body.slug)).size).toBe(PARALLEL);
      const same = await burst(() => post(`/${plural}`, { name: "Only Once" }));
      expect(same.filter((a) => a.status === 201)).toHaveLength(1);
      const refused = same.filter((a) => a.status !== 201);
      expect(refused.map((a) => a.status)).toEqual(Array(PARALLEL - 1).fill(400));
      expect(new Set(refused.map((a) => a.body.code))).toEqual(new Set(["term_exists"]));
    });
  }

  it("events naming the same new venue, organizer, category, tag and image URL share one of each", async () => {
    const answers = await burst((i) =>
      post(
        "/events",
        event(`Shared ${i}`, {
          venue: { venue: "Shared Hall" },
          organizer: [{ organizer: "Shared Org" }],
          categories: ["Shared Cat"],
          tags: "shared-tag",
          image: "https://img.example/shared.jpg",
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(answers.map((a) => a.body.venue.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.organizer[0].id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.image.id)).size).toBe(1);
    expect(await count("SELECT count(*) n FROM venues")).toBe(1);
    expect(await count("SELECT count(*) n FROM organizers")).toBe(1);
    expect(await count("SELECT count(*) n FROM media")).toBe(1);
    expect(await count("SELECT count(*) n FROM terms")).toBe(2);
    expect(await count("SELECT count n FROM terms WHERE name = 'Shared Cat'")).toBe(PARALLEL);
  });

  it("media: all 201 with distinct ids; ids stay unique across kinds", async () => {
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        call(
          new Request(`${ORIGIN}/wp-json/wp/v2/media`, {
            method: "POST",
            headers: { ...ADMIN, "content-type": "application/json" },
            body: JSON.stringify({ source_url: `https://img.example/p${i}.jpg` }),
          }),
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(PARALLEL).fill(201));
    expect(await count("SELECT count(DISTINCT id) n FROM posts")).toBe(
      await count("SELECT count(*) n FROM posts"),
    );
  });
});
