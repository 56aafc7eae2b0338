/**
 * Anonymous readers see every kind of event write once `CONTENT_VERSION_TTL_MS` has passed (README
 * "how fresh anonymous answers are"; contract §6: "a cache never changes an answer"), on the
 * running service with its default settings: create, update, each status change
 * publish ↔ draft ↔ private ↔ pending ↔ trash, trash by DELETE, password set and cleared, delete with
 * `?force=true`. The steps (support/read-after-write.ts) run in order on one event of this file's,
 * read by id (English and German), by slug, in lists (search and include) and in the iCalendar feed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  CONTENT_VERSION_TTL_MS,
  futureDate,
  get,
  NS,
  send,
  show,
  uniqueWord,
} from "./support/http";
import { type Answers, ids, revalidations, step, unfolded } from "./support/read-after-write";

const WORD = uniqueWord("e2eraw");
const EVENT_PASSWORD = "raw-Secret-9";

/** The event of the steps, filled in by the first. */
const made = { event: 0, eventSlug: `${WORD}-event` };
let eventTitle = `${WORD} event`;

const at = {
  event: () => `${NS}/events/${made.event}`,
  eventDe: () => `/de${NS}/events/${made.event}`,
  eventSlug: () => `${NS}/events/by-slug/${made.eventSlug}`,
  eventSearch: () => `${NS}/events?search=${WORD}`,
  eventInclude: () => `${NS}/events?include=${made.event}`,
  feed: () => `${NS}/events.ics?search=${WORD}`,
};

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
    expect(revalidations.count).toBeGreaterThan(20);
  });
});
