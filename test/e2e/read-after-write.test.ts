/**
 * Anonymous readers see every kind of write once `CONTENT_VERSION_TTL_MS` has passed (README
 * "how fresh anonymous answers are"; contract §6: "a cache never changes an answer"), on the
 * running service with its default settings.
 *
 * Each step: anonymous GETs of the URLs the write affects, each twice (the second answer of a URL
 * goes to the Cache API as well as the isolate's memory), then the write (as the administrator),
 * then a wait of the TTL plus a margin, then the same GETs, which must show the write; and wherever
 * an answer changed, a revalidation with the old `ETag` in `If-None-Match` must not be a 304 but
 * the new answer. The steps run in order, one write each, on one event, venue, organizer, category
 * and tag of this file's own.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  type Answer,
  CONTENT_VERSION_TTL_MS,
  expectSound,
  futureDate,
  get,
  NS,
  send,
  show,
  sleep,
  uniqueWord,
} from "./support/http";

/** Waited after each write beyond the TTL: the isolate's clock and the request's own time. */
const MARGIN_MS = 500;
const WORD = uniqueWord("e2eraw");
const EVENT_PASSWORD = "raw-Secret-9";

/** What the steps made, filled in as they go. */
const made = { event: 0, eventSlug: `${WORD}-event`, venue: 0, organizer: 0, category: 0, tag: 0 };
let eventTitle = `${WORD} event`;
let venueSlug = "";
let organizerSlug = "";

const at = {
  event: () => `${NS}/events/${made.event}`,
  eventDe: () => `/de${NS}/events/${made.event}`,
  eventSlug: () => `${NS}/events/by-slug/${made.eventSlug}`,
  eventSearch: () => `${NS}/events?search=${WORD}`,
  eventInclude: () => `${NS}/events?include=${made.event}`,
  feed: () => `${NS}/events.ics?search=${WORD}`,
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

type Answers = Record<string, Answer>;
/** Revalidations sent with an old ETag (the last test checks that there were some). */
let revalidations = 0;

/** Anonymous GETs of `paths` (at once), `times` rounds; the last answer of each. */
async function observe(paths: string[], times: number): Promise<Answers> {
  const out: Answers = {};
  for (let i = 0; i < times; i++)
    for (const answer of await Promise.all(paths.map((path) => get(path))))
      out[answer.path] = answer;
  return out;
}

/**
 * One write and what anonymous readers must see after it. `paths` are read before and after;
 * `check` gets the answers after the wait.
 * @returns the write's answer.
 */
async function step(options: {
  paths: string[];
  write: () => Promise<Answer>;
  writeStatus?: number;
  /** Called with the write's answer before the wait (to note a new id). */
  written?: (answer: Answer) => void;
  check: (after: Answers) => void | Promise<void>;
}): Promise<Answer> {
  const before = await observe(options.paths, 2);
  const written = await options.write();
  expect(written.status, show(written)).toBe(options.writeStatus ?? 200);
  options.written?.(written);
  await sleep(CONTENT_VERSION_TTL_MS + MARGIN_MS);
  const after = await observe(options.paths, 1);
  for (const answer of Object.values(after)) expectSound(answer);
  await options.check(after);
  // A client holding the old answer must get the new one, not a 304.
  const changed = options.paths.filter((path) => {
    const old = before[path];
    return old.status === 200 && old.headers.get("etag") && old.text !== after[path].text;
  });
  const revalidated = await Promise.all(
    changed.map((path) => get(path, null, { "if-none-match": before[path].headers.get("etag")! })),
  );
  revalidations += revalidated.length;
  for (const answer of revalidated) {
    const label = `If-None-Match ${before[answer.path].headers.get("etag")}: ${show(answer)}`;
    expect.soft(answer.status, label).not.toBe(304);
    expect.soft(answer.status, label).toBe(after[answer.path].status);
    expect.soft(answer.text, label).toBe(after[answer.path].text);
  }
  return written;
}

const ids = (answer: Answer, plural: string): number[] =>
  (answer.body?.[plural] ?? []).map((item: { id: number }) => item.id);
/** The iCalendar text with folded lines joined (RFC 5545 §3.1). */
const unfolded = (answer: Answer) => answer.text.replace(/\r?\n[ \t]/g, "");

/** The event is readable by anonymous visitors and listed with `title` (or not listed at all). */
function expectEventShown(after: Answers, shown: boolean) {
  if (shown)
    for (const path of [at.event(), at.eventDe(), at.eventSlug()]) {
      if (!after[path]) continue;
      expect.soft(after[path].status, show(after[path])).toBe(200);
      expect.soft(after[path].body?.title, show(after[path])).toBe(eventTitle);
    }
  for (const path of [at.eventSearch(), at.eventInclude()]) {
    if (!after[path]) continue;
    expect.soft(ids(after[path], "events").includes(made.event), show(after[path])).toBe(shown);
  }
  if (after[at.feed()])
    expect
      .soft(unfolded(after[at.feed()]).includes(`SUMMARY:${eventTitle}`), show(after[at.feed()]))
      .toBe(shown);
}

/** Single GETs by id (both languages) and slug refused with `code` (403). */
function expectEventRefused(after: Answers, code: string) {
  for (const path of [at.event(), at.eventDe(), at.eventSlug()]) {
    const answer = after[path];
    expect.soft(answer.status, show(answer)).toBe(403);
    expect.soft(answer.body?.code, show(answer)).toBe(code);
  }
}

const eventPaths = () => [
  at.event(),
  at.eventDe(),
  at.eventSlug(),
  at.eventSearch(),
  at.eventInclude(),
  at.feed(),
];
const updateEvent = (json: Record<string, unknown>) =>
  send("POST", `${NS}/events/${made.event}`, { auth: ADMIN, json });

beforeAll(() => {
  expect(CONTENT_VERSION_TTL_MS).toBeGreaterThan(0);
});

describe("events: read after write, anonymous (§8, contract §6)", () => {
  it("create", async () => {
    const written = await step({
      paths: [at.eventSearch(), at.eventSlug(), at.feed()],
      write: () =>
        send("POST", `${NS}/events`, {
          auth: ADMIN,
          json: {
            title: eventTitle,
            slug: made.eventSlug,
            description: `${WORD} first text`,
            start_date: futureDate(30),
            end_date: futureDate(30, 12),
          },
        }),
      writeStatus: 201,
      written: (answer) => {
        made.event = answer.body.id;
      },
      check: async (after) => {
        expect.soft(ids(after[at.eventSearch()], "events")).toEqual([made.event]);
        expect.soft(after[at.eventSlug()].status, show(after[at.eventSlug()])).toBe(200);
        expect.soft(after[at.eventSlug()].body?.id).toBe(made.event);
        expect.soft(unfolded(after[at.feed()])).toContain(`SUMMARY:${eventTitle}`);
        const single = await get(at.event());
        expect.soft(single.body?.description).toBe(`<p>${WORD} first text</p>`);
      },
    });
    expect(written.body.slug).toBe(made.eventSlug);
  });

  it("update", async () => {
    await step({
      paths: eventPaths(),
      write: () => {
        eventTitle = `${WORD} event renamed`;
        return updateEvent({ title: eventTitle, description: `${WORD} second text` });
      },
      check: (after) => {
        expectEventShown(after, true);
        for (const path of [at.event(), at.eventDe(), at.eventSlug()]) {
          expect.soft(after[path].body?.title, show(after[path])).toBe(eventTitle);
          expect.soft(after[path].body?.description).toBe(`<p>${WORD} second text</p>`);
        }
        const [listed] = after[at.eventInclude()].body.events;
        expect.soft(listed?.title).toBe(eventTitle);
      },
    });
  });

  // publish ↔ draft ↔ private ↔ pending ↔ trash, each way.
  const chain = ["draft", "private", "pending", "trash", "pending", "private", "draft", "publish"];
  for (const [i, status] of chain.entries()) {
    const from = i === 0 ? "publish" : chain[i - 1];
    it(`status ${from} → ${status}`, async () => {
      await step({
        paths: eventPaths(),
        write: () => updateEvent({ status }),
        check: (after) => {
          expectEventShown(after, status === "publish");
          if (status === "trash") expectEventRefused(after, "event-no-longer-available");
          else if (status !== "publish") expectEventRefused(after, "event-not-accessible");
        },
      });
    });
  }

  it("trash with DELETE, then publish again", async () => {
    await step({
      paths: eventPaths(),
      write: () => send("DELETE", at.event(), { auth: ADMIN }),
      check: (after) => {
        expectEventShown(after, false);
        expectEventRefused(after, "event-no-longer-available");
      },
    });
    await step({
      paths: eventPaths(),
      write: () => updateEvent({ status: "publish" }),
      check: (after) => expectEventShown(after, true),
    });
  });

  it("password set", async () => {
    await step({
      paths: eventPaths(),
      write: () => updateEvent({ password: EVENT_PASSWORD }),
      check: async (after) => {
        expectEventRefused(after, "event-password-protected");
        // Listed blanked (include lists it to everyone; a visitor's search no longer finds it).
        const [listed] = after[at.eventInclude()].body?.events ?? [];
        expect.soft(listed?.title, show(after[at.eventInclude()])).toBe(eventTitle);
        expect.soft(listed?.description).toBe("");
        expect.soft(after[at.eventInclude()].text).not.toContain("second text");
        expect.soft(ids(after[at.eventSearch()], "events")).toEqual([]);
        const opened = await get(`${at.event()}?password=${EVENT_PASSWORD}`);
        expect.soft(opened.status, show(opened)).toBe(200);
        expect.soft(opened.body?.description).toBe(`<p>${WORD} second text</p>`);
      },
    });
  });

  it("password cleared", async () => {
    await step({
      paths: eventPaths(),
      write: () => updateEvent({ password: "" }),
      check: (after) => {
        expectEventShown(after, true);
        expect.soft(after[at.event()].body?.description).toBe(`<p>${WORD} second text</p>`);
        const [listed] = after[at.eventInclude()].body?.events ?? [];
        expect.soft(listed?.description).toBe(`<p>${WORD} second text</p>`);
      },
    });
  });
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

describe("events: permanent delete (contract §4)", () => {
  it("DELETE ?force=true: 404 by id, unknown slug, unlisted", async () => {
    await step({
      paths: eventPaths(),
      write: () => send("DELETE", `${at.event()}?force=true`, { auth: ADMIN }),
      check: (after) => {
        expect.soft(after[at.event()].status, show(after[at.event()])).toBe(404);
        expect.soft(after[at.event()].body?.code).toBe("rest-event-not-found");
        expect.soft(after[at.eventSlug()].status, show(after[at.eventSlug()])).toBe(400);
        expect.soft(ids(after[at.eventSearch()], "events")).toEqual([]);
        expect.soft(unfolded(after[at.feed()])).not.toContain(`SUMMARY:${eventTitle}`);
      },
    });
  });
});

describe("revalidation", () => {
  it("sent the old ETag for every changed answer, many times over the steps above", () => {
    expect(revalidations).toBeGreaterThan(30);
  });
});
