/**
 * Anonymous readers see every write to venues, organizers, categories and tags once
 * `CONTENT_VERSION_TTL_MS` has passed, in their own answers and in the event they belong to
 * (README "how fresh anonymous answers are"; contract §6): create, link to the event, update,
 * trash and delete with `?force=true` (venues, organizers); create, link, update, unlink and
 * delete (categories, tags). The steps (support/read-after-write.ts) run in order on one published
 * event of this file's.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, type Answer, futureDate, get, NS, send, show, uniqueWord } from "./support/http";
import { ids, revalidations, step } from "./support/read-after-write";

const WORD = uniqueWord("e2elinked");

/** What the steps made, filled in as they go. */
const made = { event: 0, eventSlug: `${WORD}-event`, venue: 0, organizer: 0, category: 0, tag: 0 };
let venueSlug = "";
let organizerSlug = "";

const at = {
  event: () => `${NS}/events/${made.event}`,
  eventSlug: () => `${NS}/events/by-slug/${made.eventSlug}`,
  eventInclude: () => `${NS}/events?include=${made.event}`,
  venue: () => `${NS}/venues/${made.venue}`,
  venueSlug: () => `${NS}/venues/by-slug/${venueSlug}`,
  venues: () => `${NS}/venues?search=${WORD}`,
  organizer: () => `${NS}/organizers/${made.organizer}`,
  organizerSlug: () => `${NS}/organizers/by-slug/${organizerSlug}`,
  organizers: () => `${NS}/organizers?search=${WORD}`,
  category: () => `${NS}/categories/${made.category}`,
  categories: () => `${NS}/categories?search=${WORD}&hide_empty=false`,
  tag: () => `${NS}/tags/${made.tag}`,
  tags: () => `${NS}/tags?search=${WORD}&hide_empty=false`,
};

const updateEvent = (json: Record<string, unknown>) =>
  send("POST", `${NS}/events/${made.event}`, { auth: ADMIN, json });

beforeAll(async () => {
  const event = await send("POST", `${NS}/events`, {
    auth: ADMIN,
    json: {
      title: `${WORD} event`,
      slug: made.eventSlug,
      start_date: futureDate(35),
      end_date: futureDate(35, 12),
    },
  });
  expect(event.status, show(event)).toBe(201);
  made.event = event.body.id;
});

describe.each([
  {
    kind: "venue",
    plural: "venues",
    extra: { city: "Springfield" },
    changed: { city: "Ogdenville" },
  },
  {
    kind: "organizer",
    plural: "organizers",
    extra: { email: "first@organizer.example" },
    changed: { email: "second@organizer.example" },
  },
] as const)(
  "$plural: read after write, anonymous (§8.6, §8.7)",
  ({ kind, plural, extra, changed }) => {
    const id = () => made[kind];
    const single = () => (kind === "venue" ? at.venue() : at.organizer());
    const bySlug = () => (kind === "venue" ? at.venueSlug() : at.organizerSlug());
    const list = () => (kind === "venue" ? at.venues() : at.organizers());
    const ofEvent = () => `${NS}/${plural}?event=${made.event}`;
    let name = `${WORD} ${kind}`;
    const embedded = (answer: Answer) => {
      const value = answer.body?.[kind];
      return kind === "venue" ? value : value?.[0];
    };
    const embeddedInList = (answer: Answer) => {
      const [event] = answer.body?.events ?? [];
      const value = event?.[kind];
      return kind === "venue" ? value : value?.[0];
    };

    it("create", async () => {
      const slug = `${WORD}-${kind}`;
      if (kind === "venue") venueSlug = slug;
      else organizerSlug = slug;
      const written = await step({
        paths: [list(), bySlug()],
        write: () =>
          send("POST", `${NS}/${plural}`, { auth: ADMIN, json: { [kind]: name, ...extra } }),
        writeStatus: 201,
        written: (answer) => {
          made[kind] = answer.body.id;
        },
        check: (after) => {
          expect.soft(ids(after[list()], plural).length, show(after[list()])).toBe(1);
          expect.soft(after[bySlug()].status, show(after[bySlug()])).toBe(200);
          expect.soft(after[bySlug()].body?.[kind]).toBe(name);
        },
      });
      expect(written.body.slug).toBe(slug);
      expect(ids(await get(list()), plural)).toEqual([id()]);
    });

    it("linked to the event", async () => {
      await step({
        paths: [at.event(), at.eventInclude(), ofEvent()],
        write: () => updateEvent(kind === "venue" ? { venue: id() } : { organizer: [id()] }),
        check: (after) => {
          expect.soft(embedded(after[at.event()])?.id, show(after[at.event()])).toBe(id());
          expect.soft(embedded(after[at.event()])?.[kind]).toBe(name);
          expect.soft(embeddedInList(after[at.eventInclude()])?.id).toBe(id());
          expect.soft(ids(after[ofEvent()], plural), show(after[ofEvent()])).toEqual([id()]);
        },
      });
    });

    it("update (name and a field), seen in its own answers and in the event's", async () => {
      await step({
        paths: [single(), bySlug(), list(), at.event(), at.eventSlug(), at.eventInclude()],
        write: () => {
          name = `${WORD} ${kind} renamed`;
          return send("POST", `${NS}/${plural}/${id()}`, {
            auth: ADMIN,
            json: { [kind]: name, ...changed },
          });
        },
        check: (after) => {
          const [field, value] = Object.entries(changed)[0];
          for (const path of [single(), bySlug()]) {
            expect.soft(after[path].status, show(after[path])).toBe(200);
            expect.soft(after[path].body?.[kind], show(after[path])).toBe(name);
            expect.soft(after[path].body?.[field], show(after[path])).toBe(value);
          }
          const [listed] = after[list()].body?.[plural] ?? [];
          expect.soft(listed?.[kind], show(after[list()])).toBe(name);
          for (const path of [at.event(), at.eventSlug()]) {
            expect.soft(embedded(after[path])?.[kind], show(after[path])).toBe(name);
            expect.soft(embedded(after[path])?.[field], show(after[path])).toBe(value);
          }
          expect.soft(embeddedInList(after[at.eventInclude()])?.[kind]).toBe(name);
        },
      });
    });

    it("trash (DELETE): refused, unlisted, unlinked from the event (§8.7)", async () => {
      await step({
        paths: [single(), bySlug(), list(), at.event(), at.eventInclude(), ofEvent()],
        write: () => send("DELETE", `${NS}/${plural}/${id()}`, { auth: ADMIN }),
        check: (after) => {
          for (const path of [single(), bySlug()]) {
            expect.soft(after[path].status, show(after[path])).toBe(403);
            expect.soft(after[path].body?.code).toBe(`${kind}-not-accessible`);
          }
          expect.soft(ids(after[list()], plural)).toEqual([]);
          expect.soft(ids(after[ofEvent()], plural), show(after[ofEvent()])).toEqual([]);
          const shown = after[at.event()].body?.[kind];
          expect.soft(shown, show(after[at.event()])).toEqual([]);
          const [listed] = after[at.eventInclude()].body?.events ?? [];
          expect.soft(listed?.[kind], show(after[at.eventInclude()])).toEqual([]);
        },
      });
    });

    it("delete with ?force=true: gone", async () => {
      await step({
        paths: [single(), bySlug(), list()],
        write: () => send("DELETE", `${NS}/${plural}/${id()}?force=true`, { auth: ADMIN }),
        check: (after) => {
          // An id or slug that names no venue/organizer: 400 rest_invalid_param (§10.3).
          for (const path of [single(), bySlug()]) {
            expect.soft(after[path].status, show(after[path])).toBe(400);
            expect.soft(after[path].body?.code).toBe("rest_invalid_param");
          }
          expect.soft(ids(after[list()], plural)).toEqual([]);
        },
      });
    });
  },
);

describe.each([
  { taxonomy: "categories", key: "category" },
  { taxonomy: "tags", key: "tag" },
] as const)("$taxonomy: read after write, anonymous (§8.8)", ({ taxonomy, key }) => {
  const id = () => made[key];
  const single = () => (key === "category" ? at.category() : at.tag());
  const list = () => (key === "category" ? at.categories() : at.tags());
  const visibleList = () => `${NS}/${taxonomy}?search=${WORD}`;
  const eventsWith = () => `${NS}/events?${taxonomy}=${id()}`;
  let name = `${WORD} ${key}`;
  const names = (answer: Answer) =>
    (answer.body?.[taxonomy] ?? []).map((term: { name: string }) => term.name);

  it("create", async () => {
    await step({
      paths: [list()],
      write: () => send("POST", `${NS}/${taxonomy}`, { auth: ADMIN, json: { name } }),
      writeStatus: 201,
      written: (answer) => {
        made[key] = answer.body.id;
      },
      check: (after) => expect.soft(names(after[list()]), show(after[list()])).toEqual([name]),
    });
  });

  it("linked to the event", async () => {
    await step({
      paths: [at.event(), at.eventInclude(), single(), visibleList(), eventsWith()],
      write: () => updateEvent({ [taxonomy]: [id()] }),
      check: (after) => {
        expect.soft(names(after[at.event()]), show(after[at.event()])).toEqual([name]);
        expect
          .soft(
            names({
              ...after[at.eventInclude()],
              body: after[at.eventInclude()].body?.events?.[0],
            }),
          )
          .toEqual([name]);
        expect.soft(after[single()].body?.count, show(after[single()])).toBe(1);
        // hide_empty (the default) lists it now that a published event has it (§7.2).
        expect.soft(names(after[visibleList()]), show(after[visibleList()])).toEqual([name]);
        expect
          .soft(ids(after[eventsWith()], "events"), show(after[eventsWith()]))
          .toEqual([made.event]);
      },
    });
  });

  it("update (name), seen in the event", async () => {
    await step({
      paths: [single(), list(), at.event(), at.eventSlug(), at.eventInclude()],
      write: () => {
        name = `${WORD} ${key} renamed`;
        return send("POST", single(), { auth: ADMIN, json: { name } });
      },
      check: (after) => {
        expect.soft(after[single()].body?.name, show(after[single()])).toBe(name);
        expect.soft(names(after[list()])).toEqual([name]);
        for (const path of [at.event(), at.eventSlug()])
          expect.soft(names(after[path]), show(after[path])).toEqual([name]);
        expect
          .soft(
            names({
              ...after[at.eventInclude()],
              body: after[at.eventInclude()].body?.events?.[0],
            }),
          )
          .toEqual([name]);
      },
    });
  });

  if (key === "tag")
    it("unlinked from the event", async () => {
      await step({
        paths: [at.event(), at.eventInclude(), single(), visibleList(), eventsWith()],
        write: () => updateEvent({ [taxonomy]: [] }),
        check: (after) => {
          expect.soft(names(after[at.event()]), show(after[at.event()])).toEqual([]);
          expect.soft(after[single()].body?.count, show(after[single()])).toBe(0);
          expect.soft(names(after[visibleList()]), show(after[visibleList()])).toEqual([]);
          expect.soft(ids(after[eventsWith()], "events"), show(after[eventsWith()])).toEqual([]);
        },
      });
    });

  it("delete", async () => {
    await step({
      paths: [single(), list(), at.event(), at.eventInclude()],
      write: () => send("DELETE", `${single()}?force=true`, { auth: ADMIN }),
      check: (after) => {
        // A term id that names no term: 400 rest_invalid_param (§10.3).
        expect.soft(after[single()].status, show(after[single()])).toBe(400);
        expect.soft(names(after[list()])).toEqual([]);
        expect.soft(names(after[at.event()]), show(after[at.event()])).toEqual([]);
      },
    });
  });
});

describe("revalidation", () => {
  it("sent the old ETag for every changed answer, many times over the steps above", () => {
    expect(revalidations.count).toBeGreaterThan(20);
  });
});
