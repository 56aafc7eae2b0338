/**
 * Leak checks. Every role (and anonymous) reads drafts, pending, private, trashed
 * and password-protected events, venues and organizers through every read path: single by id, by
 * slug, every list (default, every status, search, include, event filter), embedded in events and
 * the iCal feed when it is there. Each post's description holds a unique marker; an answer may hold
 * a marker only when the reader may see that post's content under tec-reference §4.7 and §9.2:
 *
 * - published, unprotected: everyone;
 * - draft, pending, private, trash: the author, and editors and administrators (`read_post`; a
 *   private post needs `read_private_posts`, which only editors and up have besides the author);
 * - password protected: nobody without the password, except an editor of the post asking with
 *   `context=edit` — names and titles stay visible (contract row 18);
 * - venues and organizers embedded in an event follow their own password rules; embedded posts are
 *   shown whatever their status, as TEC does (§4.1).
 */
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { type AuthUser, canEditPost, canReadPost } from "../../src/access/capabilities";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";
import { call, ORIGIN } from "./support/client";
import { NS } from "./support/routes";
import { ACTORS, type Actor, POST_PASSWORD, seedWorld, type World } from "./support/world";

type Kind = "event" | "venue" | "organizer";
const STATUSES = ["publish", "draft", "pending", "private", "trash", "protected"] as const;
type Status = (typeof STATUSES)[number];

interface Post {
  kind: Kind;
  status: Status;
  id: number;
  slug: string;
  author: number;
  /** Text only this post's content holds. */
  marker: string;
}

function posts(w: World): Post[] {
  const out: Post[] = [];
  for (const kind of ["event", "venue", "organizer"] as const) {
    const set = kind === "event" ? w.events : kind === "venue" ? w.venues : w.organizers;
    for (const status of STATUSES) {
      out.push({
        kind,
        status,
        id: set[status],
        slug: set.slugs[status],
        author: status === "pending" ? w.people.contributor.id : w.people.author.id,
        marker: `${kind}-${status}-secret-description`,
      });
    }
  }
  return out;
}

function userOf(w: World, actor: Actor): AuthUser | null {
  return actor === "anonymous" ? null : { id: w.people[actor].id, username: actor, role: actor };
}

/** Whether `actor` may see the content of `post` in an answer. */
function mayRead(
  w: World,
  actor: Actor,
  post: Post,
  how: { context?: boolean; password?: boolean },
): boolean {
  const user = userOf(w, actor);
  const row = {
    author: post.author,
    status: post.status === "protected" ? "publish" : post.status,
    trashMetaStatus: post.status === "trash" ? "publish" : "",
  };
  if (post.status === "protected")
    return how.password === true || (how.context === true && canEditPost(user, row));
  return canReadPost(user, row);
}

let w: World;
let all: Post[];
/** A published, unprotected event linked to the protected venue and organizer. */
let carrier: number;

beforeEach(async () => {
  w = await seedWorld();
  all = posts(w);
  carrier = await seedEvent({
    title: "Carrier",
    slug: "carrier",
    start: day(2),
    venueId: w.venues.protected,
    organizerIds: [w.organizers.protected],
  });
});

const headersOf = (actor: Actor) => (actor === "anonymous" ? {} : w.people[actor].headers);

async function read(actor: Actor, path: string) {
  return call(new Request(`${ORIGIN}${NS}${path}`, { headers: headersOf(actor) }));
}

/** The read paths of the API, with what each may show (by marker). */
function paths(): Array<{ path: string; how: { context?: boolean; password?: boolean } }> {
  const ids = all.filter((p) => p.kind === "event").map((p) => p.id);
  const out: Array<{ path: string; how: { context?: boolean; password?: boolean } }> = [];
  const variants = [
    { q: "", how: {} },
    { q: "context=edit", how: { context: true } },
    { q: `password=${encodeURIComponent(POST_PASSWORD)}`, how: { password: true } },
  ];
  for (const { q, how } of variants) {
    const qs = (extra: string) => `?${[extra, q].filter(Boolean).join("&")}`;
    out.push({ path: `/events${qs("")}`, how });
    for (const status of [
      "publish",
      "draft",
      "pending",
      "private",
      "trash",
      "publish,future,draft,pending,private",
    ])
      out.push({ path: `/events${qs(`status=${status}&start_date=2000-01-01`)}`, how });
    out.push({ path: `/events${qs("search=secret&start_date=2000-01-01")}`, how });
    out.push({ path: `/events${qs(`include=${ids.join(",")}`)}`, how });
    out.push({ path: `/events.ics${qs("start_date=2000-01-01")}`, how });
    for (const plural of ["venues", "organizers"]) {
      out.push({ path: `/${plural}${qs("")}`, how });
      for (const status of [
        "publish",
        "draft",
        "pending",
        "private",
        "trash",
        "publish,draft,pending,private",
      ])
        out.push({ path: `/${plural}${qs(`status=${status}`)}`, how });
      out.push({ path: `/${plural}${qs("search=secret")}`, how });
      for (const id of [...ids, carrier]) out.push({ path: `/${plural}${qs(`event=${id}`)}`, how });
    }
    for (const p of all) {
      const base = p.kind === "event" ? "events" : `${p.kind}s`;
      out.push({ path: `/${base}/${p.id}${qs("")}`, how });
      out.push({ path: `/${base}/by-slug/${p.slug}${qs("")}`, how });
    }
    out.push({ path: `/events/${carrier}${qs("")}`, how });
    out.push({ path: `/events/by-slug/carrier${qs("")}`, how });
    for (const id of ids)
      out.push({ path: `/categories${qs(`post=${id}&hide_empty=false`)}`, how });
  }
  return out;
}

describe("nothing leaks through any read path, for any role (§4.7, §9.2)", () => {
  it.each(ACTORS)("%s", async (actor) => {
    let checked = 0;
    for (const { path, how } of paths()) {
      const answer = await read(actor, path);
      expect(answer.status, path).toBeLessThan(500);
      checked++;
      // iCalendar folds long lines (RFC 5545 §3.1): unfold before looking.
      const text = answer.text.replace(/\r?\n[ \t]/g, "");
      for (const post of all) {
        if (!text.includes(post.marker)) continue;
        expect(mayRead(w, actor, post, how), `${actor} ${path} shows ${post.marker}`).toBe(true);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe("what readers do see (the matrix above is not vacuous)", () => {
  it("shows published content to everyone and unpublished content to its author and editors", async () => {
    for (const actor of ACTORS) {
      expect((await read(actor, `/events/${w.events.publish}`)).text).toContain(
        "event-publish-secret-description",
      );
      const draft = await read(actor, `/events/${w.events.draft}`);
      const canSee = ["author", "editor", "administrator"].includes(actor);
      expect(draft.status).toBe(canSee ? 200 : 403);
      if (!canSee) expect(draft.body.code).toBe("event-not-accessible");
    }
    expect((await read("contributor", `/venues/${w.venues.pending}`)).text).toContain(
      "venue-pending-secret-description",
    );
    expect((await read("author", `/venues/${w.venues.pending}`)).status).toBe(403);
  });

  it("blanks password-protected events, venues and organizers — also embedded in a public event — names kept", async () => {
    const single = await read("administrator", `/events/${w.events.protected}`);
    expect(single.status).toBe(403);
    expect(single.body.code).toBe("event-password-protected");
    const opened = await read(
      "anonymous",
      `/events/${w.events.protected}?password=${encodeURIComponent(POST_PASSWORD)}`,
    );
    expect(opened.text).toContain("event-protected-secret-description");
    const venue = await read("anonymous", `/venues/${w.venues.protected}`);
    expect(venue.status).toBe(200);
    expect(venue.body).toMatchObject({
      venue: "venue protected name",
      description: "",
      address: "",
      city: "",
      phone: "",
    });
    const embedded = await read("anonymous", `/events/${carrier}`);
    expect(embedded.status).toBe(200);
    expect(embedded.body.venue).toMatchObject({
      venue: "venue protected name",
      description: "",
      address: "",
      phone: "",
      website: "",
    });
    expect(embedded.body.organizer[0]).toMatchObject({
      organizer: "organizer protected name",
      description: "",
      email: "",
      phone: "",
    });
    expect(JSON.stringify(embedded.body.json_ld)).not.toMatch(
      /555-protected|protected street|protected@/,
    );
    const listed = (await read("anonymous", "/events")).body.events.find(
      (e: { id: number }) => e.id === carrier,
    );
    expect(listed.venue).toMatchObject({ venue: "venue protected name", address: "" });
    // The venue's own password, or its editor's context=edit, opens the embedded copy on a single GET.
    const withPassword = await read(
      "anonymous",
      `/events/${carrier}?password=${encodeURIComponent(POST_PASSWORD)}`,
    );
    expect(withPassword.body.venue.address).toBe("1 protected street");
    expect((await read("editor", `/events/${carrier}?context=edit`)).body.organizer[0].email).toBe(
      "protected@organizer.example",
    );
    expect(
      (await read("subscriber", `/events/${carrier}?context=edit`)).body.organizer[0].email,
    ).toBe("");
  });

  it("does not list trashed posts by default and shows them only to who may read them", async () => {
    for (const actor of ACTORS) {
      const list = await read(actor, "/events?status=trash&start_date=2000-01-01");
      if (["anonymous", "subscriber"].includes(actor)) expect(list.status).toBe(400);
      else
        expect(list.text.includes("event-trash-secret-description")).toBe(
          ["author", "editor", "administrator"].includes(actor),
        );
      expect((await read(actor, `/events/${w.events.trash}`)).status).toBe(403);
    }
    const rows = await env.DB.prepare(
      "SELECT count(*) n FROM events WHERE status = 'trash'",
    ).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});
