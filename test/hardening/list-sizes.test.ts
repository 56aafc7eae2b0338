/**
 * No size makes a 5xx. Every list-valued argument has a maximum (100 items;
 * beyond it 400 naming the parameter) and every count up to it works — D1 allows only 100 bound
 * parameters per statement, so lists travel as one JSON parameter.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import { day } from "../support/dates";
import { seedOrganizer, seedTerm, seedVenue } from "../support/factories";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const event = (extra: Record<string, unknown>) => ({
  title: "Big",
  start_date: day(3),
  end_date: day(3, "11:00:00"),
  ...extra,
});

describe("lists of every size up to the maximum", () => {
  it("an event with 100 organizer ids, 100 new tags and 100 new categories is created whole", async () => {
    const organizers: number[] = [];
    for (const i of range(100)) organizers.push(await seedOrganizer({ title: `Org ${i}` }));
    const res = await api(`${NS}/events`, {
      json: event({
        organizer: organizers,
        tags: range(100).map((i) => `tag ${i}`),
        categories: range(100).map((i) => `Category ${i}`),
      }),
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.organizer.map((o: any) => o.id)).toEqual(organizers);
    expect(res.body.tags).toHaveLength(100);
    expect(res.body.categories).toHaveLength(100);
    const cats = await api(`${NS}/categories?per_page=50`);
    expect(cats.body.total).toBe(100);
    expect(cats.body.categories.every((c: any) => c.count === 1)).toBe(true);
  });

  it("100 new organizers and a new venue given as objects, with images by URL", async () => {
    const res = await api(`${NS}/events`, {
      json: event({
        venue: { venue: "New Hall", image: "https://img.example/hall.jpg" },
        organizer: range(100).map((i) => ({
          organizer: `New Org ${i}`,
          image: `https://img.example/org-${i}.png`,
        })),
      }),
      headers: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(res.body.organizer).toHaveLength(100);
    expect(res.body.organizer[99].image.url).toBe("https://img.example/org-99.png");
    expect(res.body.venue.image.url).toBe("https://img.example/hall.jpg");
  });

  it("updates replace 100 organizers and terms by 100 others", async () => {
    const first: number[] = [];
    for (const i of range(100)) first.push(await seedOrganizer({ title: `A ${i}` }));
    const second = [...first].reverse();
    const tags: number[] = [];
    for (const i of range(100)) tags.push(await seedTerm("post_tag", `t${i}`));
    const created = await api(`${NS}/events`, {
      json: event({ organizer: first, tags }),
      headers: ADMIN,
    });
    const updated = await api(`${NS}/events/${created.body.id}`, {
      method: "PATCH",
      json: { organizer: second, tags: range(100).map((i) => `other ${i}`) },
      headers: ADMIN,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.organizer.map((o: any) => o.id)).toEqual(second);
    expect(updated.body.tags.map((t: any) => t.name)).not.toContain("t0");
  });

  it("101 items are a 400 naming the parameter, whatever the syntax, and nothing is written", async () => {
    const ids = range(101).map((i) => i + 1);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ organizer: ids }, "organizer"],
      [{ organizer: ids.join(",") }, "organizer"],
      [{ organizer: [ids.slice(0, 60).join(","), ids.slice(60).join(",")] }, "organizer"],
      [{ venue: ids.join(",") }, "venue"],
      [{ tags: ids.map((i) => `t${i}`) }, "tags"],
      [{ categories: ids.map((i) => `c${i}`).join(",") }, "categories"],
    ];
    for (const [extra, name] of cases) {
      const res = await api(`${NS}/events`, { json: event(extra), headers: ADMIN });
      expect(res.status, name).toBe(400);
      expect(res.body.code).toBe("rest_invalid_param");
      expect(Object.keys(res.body.data.params)).toEqual([name]);
    }
    expect((await api(`${NS}/events`)).body.total).toBe(0);
  });

  it("list filters take 100 items and refuse 101", async () => {
    const venues: number[] = [];
    for (const i of range(100)) venues.push(await seedVenue({ title: `V ${i}` }));
    const terms = range(100).map((i) => `term-${i}`);
    for (const t of terms) await seedTerm("tribe_events_cat", t);
    const ok = [
      `venue=${venues.join(",")}`,
      `include=${range(100)
        .map((i) => i + 1)
        .join(",")}`,
      `categories=${terms.join(",")}`,
      `uid=${range(100)
        .map((i) => `u${i}`)
        .join(",")}`,
    ];
    for (const query of ok) {
      const res = await api(`${NS}/events?${query}`);
      expect(res.status, query.slice(0, 20)).toBe(200);
    }
    for (const name of ["venue", "organizer", "include", "categories", "tags", "uid"]) {
      const res = await api(
        `${NS}/events?${name}=${range(101)
          .map((i) => i + 1)
          .join(",")}`,
      );
      expect(res.status, name).toBe(400);
      expect(Object.keys(res.body.data.params)).toEqual([name]);
    }
  });
});
