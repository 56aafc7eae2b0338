/**
 * A small, realistic calendar for the hardening suites: users of every role with application
 * passwords, events of every status (one password protected) linked to venues, organizers, categories,
 * tags and an image, and venues/organizers of every status (one of each password protected).
 * Everything is written straight into D1, so the suites never depend on the write path they attack.
 */
import { env } from "cloudflare:workers";
import type { Role } from "../../../src/access/roles";
import { sha256Hex } from "../../../src/http/crypto";
import { day } from "../../support/dates";
import {
  seedEvent,
  seedMedia,
  seedOrganizer,
  seedTerm,
  seedUser,
  seedVenue,
} from "../../support/factories";
import { restorable } from "../../support/restorable";

/** The administrator of the test configuration (ADMIN_APP_PASSWORD in vitest.config.ts). */
export const ADMIN_PASSWORD = "test admin password";
/** The password of the protected event, venue and organizer. */
export const POST_PASSWORD = "pp-Secret-7Q";

/** Who sends a request: nobody, or a user of one of the five roles. */
export type Actor = "anonymous" | Role;
export const ACTORS: Actor[] = [
  "anonymous",
  "administrator",
  "editor",
  "author",
  "contributor",
  "subscriber",
];

export interface Person {
  id: number;
  headers: Record<string, string>;
  /** The application password in clear (never to be seen in an answer). */
  password: string;
  /** uuid of the person's application password. */
  uuid: string;
}

/** Post ids by status. */
export interface Posts {
  publish: number;
  draft: number;
  pending: number;
  private: number;
  trash: number;
  protected: number;
}

export interface World {
  people: Record<Role, Person>;
  events: Posts & { slugs: Record<keyof Posts, string> };
  venues: Posts & { slugs: Record<keyof Posts, string> };
  organizers: Posts & { slugs: Record<keyof Posts, string> };
  categories: { parent: number; child: number; names: string[] };
  tags: { one: number; two: number; names: string[] };
  media: number;
  /** Texts that only the protected or unpublished posts hold; an answer that shows them leaks. */
  secrets: { drafts: string[]; protectedText: string[] };
  /** Credentials and their digests: never in an answer. */
  credentials: string[];
}

const STATUSES = ["publish", "draft", "pending", "private", "trash", "protected"] as const;

async function uuidOf(userId: number): Promise<string> {
  const row = await env.DB.prepare("SELECT uuid FROM application_passwords WHERE user_id = ?")
    .bind(userId)
    .first<{ uuid: string }>();
  return row!.uuid;
}

async function person(role: Role): Promise<Person> {
  if (role === "administrator") {
    return {
      id: 1,
      headers: { authorization: `Basic ${btoa(`admin:${ADMIN_PASSWORD}`)}` },
      password: ADMIN_PASSWORD,
      uuid: "",
    };
  }
  const { id, headers } = await seedUser(role);
  return { id, headers, password: `pw-${role}-0123456789`, uuid: await uuidOf(id) };
}

/**
 * Makes sure the database is the freshly migrated one test/setup.ts prepares (`freshStorage`, which
 * also catches a `reset()` that left the old rows behind): the world's ids depend on it.
 * @throws Error when it is not.
 */
async function assertFreshDatabase(): Promise<void> {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM users) u, (SELECT count(*) FROM posts) p",
  ).first<{ u: number; p: number }>();
  if (row?.u !== 1 || row.p !== 0)
    throw new Error(`the database is not fresh: ${JSON.stringify(row)}`);
}

/**
 * Seeds the world (about 40 rows) and returns its ids: built once per worker, then put back by its
 * rows (test/support/restorable.ts). Call it on fresh storage, at a test's start.
 */
export function seedWorld(): Promise<World> {
  return restorable("hardening world", buildWorld);
}

/** Builds the world from scratch (what `seedWorld` does the first time in a worker). */
export async function buildWorld(): Promise<World> {
  await assertFreshDatabase();
  const people = {} as Record<Role, Person>;
  for (const role of ["administrator", "editor", "author", "contributor", "subscriber"] as Role[])
    people[role] = await person(role);
  const author = people.author.id;
  const contributor = people.contributor.id;

  const media = await seedMedia("https://cdn.example.com/img/poster.jpg", {
    width: 800,
    height: 600,
  });
  const parent = await seedTerm("tribe_events_cat", "Music");
  const child = await seedTerm("tribe_events_cat", "Jazz & Blues", { slug: "jazz-blues", parent });
  const one = await seedTerm("post_tag", "outdoor");
  const two = await seedTerm("post_tag", "family's day", { slug: "familys-day" });

  const linked = async (seed: typeof seedVenue, kind: "venue" | "organizer") => {
    const ids = {} as Posts;
    const slugs = {} as Record<keyof Posts, string>;
    for (const status of STATUSES) {
      const slug = `${kind}-${status}`;
      const fields =
        kind === "venue"
          ? {
              address: `1 ${status} street`,
              city: `City-${status}`,
              phone: `555-${status}`,
              zip: "62701",
              website: `https://${status}.venue.example`,
            }
          : {
              phone: `555-${status}`,
              website: `https://${status}.organizer.example`,
              email: `${status}@organizer.example`,
            };
      ids[status] = await seed({
        title: `${kind} ${status} name`,
        slug,
        status: status === "protected" ? "publish" : status,
        author: status === "pending" ? contributor : author,
        content: `${kind}-${status}-secret-description`,
        excerpt: `${kind}-${status}-secret-excerpt`,
        imageId: media,
        ...fields,
      } as never);
      slugs[status] = slug;
    }
    const table = kind === "venue" ? "venues" : "organizers";
    await env.DB.prepare(`UPDATE ${table} SET password_digest = ? WHERE id = ?`)
      .bind(await sha256Hex(POST_PASSWORD), ids.protected)
      .run();
    return { ...ids, slugs };
  };
  const venues = await linked(seedVenue, "venue");
  const organizers = await linked(seedOrganizer as typeof seedVenue, "organizer");

  const events = {} as Posts;
  const slugs = {} as Record<keyof Posts, string>;
  for (const [i, status] of STATUSES.entries()) {
    const slug = `event-${status}`;
    events[status] = await seedEvent({
      title: `event ${status} title`,
      slug,
      status: status === "protected" ? "publish" : status,
      author: status === "pending" ? contributor : author,
      content: `event-${status}-secret-description`,
      excerpt: `event-${status}-secret-excerpt`,
      start: day(i + 1),
      end: day(i + 1, "12:00:00"),
      cost: ["15"],
      venueId: venues[status],
      organizerIds:
        status === "publish" ? [organizers.publish] : [organizers[status], organizers.publish],
      termIds: [status === "publish" ? parent : child, one],
      ...(status === "protected" ? { password: POST_PASSWORD } : {}),
    });
    slugs[status] = slug;
  }
  await env.DB.prepare("UPDATE events SET image_id = ? WHERE id = ?")
    .bind(media, events.publish)
    .run();

  const credentials: string[] = [ADMIN_PASSWORD, POST_PASSWORD];
  for (const p of Object.values(people)) credentials.push(p.password);
  for (const c of [...credentials]) credentials.push(await sha256Hex(c));
  const drafts: string[] = [];
  const protectedText: string[] = [];
  for (const kind of ["event", "venue", "organizer"]) {
    for (const status of ["draft", "pending", "private", "trash"])
      drafts.push(`${kind}-${status}-secret-description`);
    protectedText.push(`${kind}-protected-secret-description`, `${kind}-protected-secret-excerpt`);
  }
  return {
    people,
    events: { ...events, slugs },
    venues,
    organizers,
    categories: { parent, child, names: ["Music", "Jazz & Blues", "music", "jazz-blues"] },
    tags: { one, two, names: ["outdoor", "family's day", "familys-day"] },
    media,
    secrets: { drafts, protectedText },
    credentials,
  };
}
