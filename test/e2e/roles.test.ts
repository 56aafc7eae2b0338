/**
 * Every role reads events, venues and organizers of every status on the running service: by id, by
 * slug and in lists (tec-reference §4.7, §7.1, §9.2, §10.3; the same rules as
 * test/events/read.security.test.ts, test/linked-posts/visibility.security.test.ts and
 * test/hardening/leaks.test.ts, here over HTTP against `npm start`).
 *
 * Fixtures are made through the API by the users they belong to: the author's draft, private,
 * trashed (created published, then DELETEd by the author) and password-protected posts, the
 * contributor's pending ones. Venues and organizers have no writable password, so the protected
 * venue and organizer get theirs with `wrangler d1 execute` on the service's own `--persist-to`
 * state, followed by an API write (every write bumps the content version the caches key on).
 *
 * `read_post` (WordPress `map_meta_cap`, §9.2): published posts everyone; private ones their author
 * and editors; drafts, pending and trashed ones their author and whoever may edit others' posts.
 * Single events add §4.7: trashed → 403 `event-no-longer-available` and protected without the
 * password → 403 `event-password-protected`, for every role; lists never show trash, and show
 * protected posts with their protected fields blanked (names kept).
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { localState, runWrangler } from "../../scripts/lib/wrangler";
import {
  ADMIN,
  type Answer,
  type Credentials,
  expectSound,
  futureDate,
  get,
  NS,
  send,
  show,
  uniqueWord,
} from "./support/http";
import { ACTORS, type Actor, createPeople, type People, type Role } from "./support/people";

const STATUSES = ["publish", "draft", "pending", "private", "trash", "protected"] as const;
type Status = (typeof STATUSES)[number];
type Kind = "event" | "venue" | "organizer";
const KINDS: Kind[] = ["event", "venue", "organizer"];
const PLURAL: Record<Kind, string> = { event: "events", venue: "venues", organizer: "organizers" };

/** The password of the protected event, venue and organizer. */
const POST_PASSWORD = "pp-Secret-7Q";
/** The word in every fixture's title: lists are searched for it. */
const WORD = uniqueWord("e2erole");

/** Who made each post: the contributor the pending ones, the author all others. */
const OWNER = (status: Status): Role => (status === "pending" ? "contributor" : "author");
const EDITORS: Actor[] = ["editor", "administrator"];

/** `read_post` of a post of `status` (§9.2), protected posts being published ones. */
function canRead(actor: Actor, status: Status): boolean {
  if (status === "publish" || status === "protected") return true;
  if (actor === "anonymous") return false;
  return actor === OWNER(status) || EDITORS.includes(actor);
}

/** What a single GET without password answers (§4.7, §10.3). */
function expectedSingle(kind: Kind, actor: Actor, status: Status): { status: number; body?: any } {
  const refused = (code: string, message: string) => ({
    status: 403,
    body: { code, message, data: { status: 403 } },
  });
  if (kind === "event" && status === "trash")
    return refused("event-no-longer-available", "This event is no longer available");
  if (kind === "event" && status === "protected")
    return refused(
      "event-password-protected",
      "The requested event is not accessible without a password",
    );
  if (canRead(actor, status)) return { status: 200 };
  return refused(`${kind}-not-accessible`, `The requested ${kind} is not accessible`);
}

/** Whether the post shows in `actor`'s default list (§6.1, §7.1): never trash. */
const listed = (actor: Actor, status: Status) => status !== "trash" && canRead(actor, status);

interface Post {
  kind: Kind;
  status: Status;
  id: number;
  slug: string;
  name: string;
  /** Text only this post's description holds. */
  marker: string;
}

let people: People;
const posts: Post[] = [];
/** A published event of the administrator's, linked to the protected venue and organizer. */
let carrier: { id: number; slug: string };

const authOf = (actor: Actor): Credentials => people[actor].auth;
const post = (kind: Kind, status: Status) =>
  posts.find((p) => p.kind === kind && p.status === status)!;

async function created(answer: Answer): Promise<any> {
  expect(answer.status, show(answer)).toBe(201);
  return answer.body;
}

/** Creates one post of `kind` and `status` as its owner, through the API. */
async function createPost(kind: Kind, status: Status, index: number): Promise<Post> {
  const owner = authOf(OWNER(status));
  const name = `${WORD} ${kind} ${status}`;
  const marker = `${WORD}-${kind}-${status}-secret`;
  const wanted = status === "protected" || status === "trash" ? "publish" : status;
  const body: Record<string, unknown> =
    kind === "event"
      ? {
          title: name,
          slug: `${WORD}-event-${status}`,
          description: marker,
          start_date: futureDate(20 + index),
          end_date: futureDate(20 + index, 12),
          status: wanted,
          ...(status === "protected" ? { password: POST_PASSWORD } : {}),
        }
      : {
          [kind]: name,
          description: marker,
          status: wanted,
          ...(kind === "venue"
            ? { address: `1 ${status} street`, city: "Springfield", phone: `555-${status}` }
            : { email: `${status}@organizer.example`, phone: `555-${status}` }),
        };
  const made = await created(
    await send("POST", `${NS}/${PLURAL[kind]}`, { auth: owner, json: body }),
  );
  expect(made.status, `${kind} ${status} created as ${wanted}`).toBe(wanted);
  if (status === "trash") {
    const trashed = await send("DELETE", `${NS}/${PLURAL[kind]}/${made.id}`, { auth: owner });
    expect(trashed.status, show(trashed)).toBe(200);
    expect(trashed.body.status).toBe("trash");
  }
  return { kind, status, id: made.id, slug: made.slug, name, marker };
}

beforeAll(async () => {
  people = await createPeople(uniqueWord("role"));
  for (const kind of KINDS)
    for (const [i, status] of STATUSES.entries()) posts.push(await createPost(kind, status, i));

  // The protected venue and organizer: a password is not an API field of theirs (tec-reference
  // §4.7 knows them only from WordPress), so it goes straight into the service's local D1.
  localState.persistTo = inject("e2ePersistTo");
  const digest = createHash("sha256").update(POST_PASSWORD).digest("hex");
  for (const kind of ["venue", "organizer"] as const)
    await runWrangler([
      "d1",
      "execute",
      "DB",
      "--local",
      "--command",
      `UPDATE ${PLURAL[kind]} SET password_digest = '${digest}' WHERE id = ${post(kind, "protected").id}`,
    ]);
  const made = await created(
    await send("POST", `${NS}/events`, {
      auth: ADMIN,
      json: {
        title: `${uniqueWord("carrier")} carrier`,
        start_date: futureDate(40),
        end_date: futureDate(40, 12),
        venue: post("venue", "protected").id,
        organizer: [post("organizer", "protected").id],
      },
    }),
  );
  carrier = { id: made.id, slug: made.slug };
}, 180_000);

describe("single reads by id and by slug, per role (§4.7, §9.2, §10.3)", () => {
  it.each(ACTORS)("%s", async (actor) => {
    for (const p of posts) {
      const expected = expectedSingle(p.kind, actor, p.status);
      for (const path of [`${p.id}`, `by-slug/${p.slug}`]) {
        const answer = await get(`${NS}/${PLURAL[p.kind]}/${path}`, authOf(actor));
        const label = `${actor} reads the ${p.status} ${p.kind}: ${show(answer)}`;
        expectSound(answer, label);
        expect.soft(answer.status, label).toBe(expected.status);
        if (expected.body) expect.soft(answer.body, label).toEqual(expected.body);
        if (answer.status !== 200) continue;
        expect.soft(answer.body.id, label).toBe(p.id);
        // A protected venue or organizer is shown, its name kept and its description blanked.
        const open = p.status !== "protected";
        expect.soft(answer.text.includes(p.marker), `${label} (description shown?)`).toBe(open);
        if (p.kind !== "event") expect.soft(answer.body[p.kind], label).toBe(p.name);
      }
    }
  });

  it.each(ACTORS)("%s, with ?password= and with context=edit", async (actor) => {
    for (const kind of KINDS) {
      const p = post(kind, "protected");
      const withPassword = await get(
        `${NS}/${PLURAL[kind]}/by-slug/${p.slug}?password=${encodeURIComponent(POST_PASSWORD)}`,
        authOf(actor),
      );
      expect.soft(withPassword.status, show(withPassword)).toBe(200);
      expect.soft(withPassword.text, show(withPassword)).toContain(p.marker);
      const wrong = await get(`${NS}/${PLURAL[kind]}/${p.id}?password=wrong`, authOf(actor));
      expectSound(wrong);
      expect.soft(wrong.text.includes(p.marker), show(wrong)).toBe(false);
      // context=edit opens it to who may edit it: its author and editors (§4.7).
      const edit = await get(`${NS}/${PLURAL[kind]}/${p.id}?context=edit`, authOf(actor));
      const mayEdit = actor === "author" || EDITORS.includes(actor);
      expectSound(edit);
      expect.soft(edit.status, show(edit)).toBe(kind === "event" && !mayEdit ? 403 : 200);
      expect.soft(edit.text.includes(p.marker), `${actor}: ${show(edit)}`).toBe(mayEdit);
    }
  });

  it.each(ACTORS)(
    "%s: a public event shows its protected venue and organizer blanked",
    async (actor) => {
      for (const path of [`${carrier.id}`, `by-slug/${carrier.slug}`]) {
        const answer = await get(`${NS}/events/${path}`, authOf(actor));
        expect(answer.status, show(answer)).toBe(200);
        expect.soft(answer.body.venue).toMatchObject({
          venue: post("venue", "protected").name,
          address: "",
          description: "",
        });
        expect.soft(answer.body.organizer[0]).toMatchObject({
          organizer: post("organizer", "protected").name,
          email: "",
        });
        expect.soft(answer.text).not.toContain(post("venue", "protected").marker);
        expect.soft(answer.text).not.toContain("protected@organizer.example");
      }
    },
  );
});

describe("lists, per role (§6.1, §7.1, §4.7)", () => {
  /**
   * Whether a `search` finds the post: a protected post only for who may edit it (its author and
   * editors) or with its password (WordPress keeps protected posts out of visitors'
   * searches, src/db/sql.ts `searchablePasswords`).
   */
  const found = (actor: Actor, status: Status) =>
    listed(actor, status) &&
    (status !== "protected" || actor === OWNER(status) || EDITORS.includes(actor));

  it.each(ACTORS)("%s", async (actor) => {
    const auth = authOf(actor);
    for (const kind of KINDS) {
      const mine = posts.filter((p) => p.kind === kind);
      const guarded = post(kind, "protected");
      // Events by search and by include (which lists protected events to everyone, blanked);
      // venues and organizers by search and by the event they belong to (the protected ones).
      const queries: Array<[string, Post[]]> = [
        [`search=${WORD}`, mine.filter((p) => found(actor, p.status))],
        kind === "event"
          ? [
              `include=${mine.map((p) => p.id).join(",")}`,
              mine.filter((p) => listed(actor, p.status)),
            ]
          : [`event=${carrier.id}`, [guarded]],
      ];
      for (const [query, expected] of queries) {
        const answer = await get(`${NS}/${PLURAL[kind]}?${query}&per_page=50`, auth);
        const label = `${actor}: ${show(answer)}`;
        expect.soft(answer.status, label).toBe(200);
        if (answer.status !== 200) continue;
        const items: any[] = answer.body[PLURAL[kind]];
        expect
          .soft(items.map((item) => item.id).sort(), label)
          .toEqual(expected.map((p) => p.id).sort());
        // Nobody's list shows a post it may not read; protected ones are listed blanked.
        for (const p of mine) {
          const shown = expected.includes(p) && p.status !== "protected";
          expect.soft(answer.text.includes(p.marker), `${label} shows ${p.marker}?`).toBe(shown);
        }
        for (const item of items) {
          expect.soft(item.status, label).not.toBe("trash");
          if (item.id === guarded.id && kind !== "event")
            expect.soft(item[kind], `${label}: the name stays`).toBe(guarded.name);
        }
      }
      if (kind === "event") {
        // The iCalendar feed (contract §7) lists what /events lists.
        const feed = await get(`${NS}/events.ics?search=${WORD}`, auth);
        expect.soft(feed.status, show(feed)).toBe(200);
        const text = feed.text.replace(/\r?\n[ \t]/g, "");
        for (const p of mine) {
          const label = `${actor}: the feed lists the ${p.status} event?`;
          expect.soft(text.includes(`SUMMARY:${p.name}`), label).toBe(found(actor, p.status));
          expect
            .soft(text.includes(p.marker), label)
            .toBe(found(actor, p.status) && p.status !== "protected");
        }
      }
      // The password opens the protected post in a list, and lets a search find it.
      const opened = await get(
        `${NS}/${PLURAL[kind]}?search=${WORD}&password=${encodeURIComponent(POST_PASSWORD)}`,
        auth,
      );
      expect.soft(opened.text, show(opened)).toContain(guarded.marker);
      // Other statuses are refused to who may not edit posts (§3, §7.1); trash is listed on
      // request to who may read it.
      const trash = await get(`${NS}/${PLURAL[kind]}?status=trash&per_page=50`, auth);
      expectSound(trash);
      if (actor === "anonymous" || actor === "subscriber") {
        expect.soft(trash.status, show(trash)).toBe(400);
      } else {
        expect.soft(trash.status, show(trash)).toBe(200);
        const ids = (trash.body?.[PLURAL[kind]] ?? []).map((item: any) => item.id);
        expect
          .soft(ids.includes(post(kind, "trash").id), `${actor}: ${show(trash)}`)
          .toBe(canRead(actor, "trash"));
      }
    }
  });
});

describe("the demo calendar in anonymous and subscriber lists", () => {
  it.each(["anonymous", "subscriber"] as Actor[])("%s sees published posts only", async (actor) => {
    const auth = authOf(actor);
    for (const [plural, query] of [
      ["events", "start_date=2000-01-01&end_date=2100-01-01"],
      ["venues", ""],
      ["organizers", ""],
    ]) {
      let url: string | undefined = `${NS}/${plural}?per_page=50&${query}`;
      let pages = 0;
      while (url && pages < 20) {
        const answer = await get(url, auth);
        expect(answer.status, show(answer)).toBe(200);
        for (const item of answer.body[plural])
          expect.soft(item.status, `${plural} ${item.id} in ${url}`).toBe("publish");
        const next: string | undefined = answer.body.next_rest_url;
        url = next ? new URL(next).pathname + new URL(next).search : undefined;
        pages++;
      }
      expect(pages).toBeGreaterThan(0);
    }
  });
});
