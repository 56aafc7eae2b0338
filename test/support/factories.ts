/**
 * Test data written straight into D1 (for read-path tests that must not depend on the write path).
 * Each helper returns the id it created; ids come from the shared post/term sequences like the API's.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { DateTime } from "luxon";
import type { Role } from "../../src/access/roles";
import * as schema from "../../src/db/schema";
import { sha256Hex } from "../../src/http/crypto";
import { forgetVersion } from "../../src/read-cache/version";
import { zoneAbbreviation } from "../../src/time/zone";

export const db = () => drizzle(env.DB, { schema });

/**
 * Seeds are writes from outside the worker: the triggers move the content version as for any write
 * (drizzle/0011_content_version_triggers.sql), and the isolate is told, as a write through it would
 * tell it, so that its next anonymous answer sees the seed at once.
 */
async function bumpVersion(): Promise<void> {
  forgetVersion();
}

async function nextPostId(type: schema.PostType): Promise<number> {
  await bumpVersion();
  const rows = await db()
    .insert(schema.posts)
    .values({
      id: sql`(SELECT coalesce(max(id), 0) + 1 FROM posts)` as unknown as number,
      postType: type,
    })
    .returning({ id: schema.posts.id });
  return rows[0].id;
}

const stamp = "2026-01-01 10:00:00";

function postFields(over: {
  title: string;
  slug?: string;
  status?: string;
  author?: number | null;
  content?: string;
  excerpt?: string;
  password?: string;
}) {
  return {
    author: over.author === undefined ? 1 : over.author,
    status: over.status ?? "publish",
    slug:
      over.slug ??
      over.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    title: over.title,
    content: over.content ?? "",
    excerpt: over.excerpt ?? "",
    postDate: stamp,
    postDateGmt: stamp,
    postModified: stamp,
    postModifiedGmt: stamp,
    changedGmt: stamp,
  };
}

export interface EventSeed {
  title: string;
  slug?: string;
  status?: string;
  author?: number | null;
  content?: string;
  excerpt?: string;
  /** Local `Y-m-d H:i:s` in `timezone`. */
  start: string;
  end?: string;
  timezone?: string;
  allDay?: boolean;
  cost?: string[];
  featured?: boolean;
  hidden?: boolean;
  ticketed?: boolean;
  venueId?: number | null;
  organizerIds?: number[];
  termIds?: number[];
  password?: string;
  postDate?: string;
  postParent?: number;
  website?: string | null;
}

/** Inserts an event (with its organizer and term links). */
export async function seedEvent(seed: EventSeed): Promise<number> {
  const id = await nextPostId("tribe_events");
  const zone = seed.timezone ?? "UTC";
  const end = seed.end ?? seed.start;
  const start = DateTime.fromFormat(seed.start, "yyyy-MM-dd HH:mm:ss", { zone });
  const finish = DateTime.fromFormat(end, "yyyy-MM-dd HH:mm:ss", { zone });
  await db()
    .insert(schema.events)
    .values({
      id,
      ...postFields(seed),
      ...(seed.postDate ? { postDate: seed.postDate, postDateGmt: seed.postDate } : {}),
      passwordDigest: seed.password ? await sha256Hex(seed.password) : "",
      postParent: seed.postParent ?? 0,
      startDate: seed.start,
      endDate: end,
      startDateUtc: start.toUTC().toFormat("yyyy-MM-dd HH:mm:ss"),
      endDateUtc: finish.toUTC().toFormat("yyyy-MM-dd HH:mm:ss"),
      timezone: zone,
      timezoneAbbr: zoneAbbreviation(zone, start),
      allDay: seed.allDay ?? false,
      cost: seed.cost ?? [],
      featured: seed.featured ?? false,
      hideFromListings: seed.hidden ?? false,
      ticketed: seed.ticketed ?? false,
      venueId: seed.venueId ?? null,
      website: seed.website === undefined ? null : seed.website,
    });
  for (const [position, organizerId] of (seed.organizerIds ?? []).entries()) {
    await db().insert(schema.eventOrganizers).values({ eventId: id, organizerId, position });
  }
  for (const termId of seed.termIds ?? [])
    await db().insert(schema.eventTerms).values({ eventId: id, termId });
  await db().run(
    sql`UPDATE terms SET count = (SELECT count(*) FROM event_terms et JOIN events e ON e.id = et.event_id WHERE et.term_id = terms.id AND e.status = 'publish')`,
  );
  return id;
}

/** Inserts a venue. */
export async function seedVenue(
  seed: Partial<typeof schema.venues.$inferInsert> & { title: string; password?: string },
): Promise<number> {
  const id = await nextPostId("tribe_venue");
  const { password, ...rest } = seed;
  await db()
    .insert(schema.venues)
    .values({
      ...postFields(seed),
      ...rest,
      id,
      passwordDigest: password ? await sha256Hex(password) : "",
    });
  return id;
}

/** Inserts an organizer. */
export async function seedOrganizer(
  seed: Partial<typeof schema.organizers.$inferInsert> & { title: string },
): Promise<number> {
  const id = await nextPostId("tribe_organizer");
  await db()
    .insert(schema.organizers)
    .values({ ...postFields(seed), ...seed, id });
  return id;
}

/** Inserts a category or tag. */
export async function seedTerm(
  taxonomy: schema.Taxonomy,
  name: string,
  extra: { slug?: string; parent?: number } = {},
): Promise<number> {
  await bumpVersion();
  const rows = await db()
    .insert(schema.terms)
    .values({
      taxonomy,
      name,
      slug: extra.slug ?? name.toLowerCase().replace(/[^a-z0-9]+/g, "-"),
      parent: extra.parent ?? 0,
    })
    .returning({ id: schema.terms.id });
  return rows[0].id;
}

/** Inserts media. */
export async function seedMedia(
  sourceUrl: string,
  size: { width?: number; height?: number } = {},
): Promise<number> {
  const id = await nextPostId("attachment");
  await db()
    .insert(schema.media)
    .values({
      ...postFields({ title: "image" }),
      slug: `image-${id}`,
      id,
      sourceUrl,
      mimeType: "image/jpeg",
      ...size,
    });
  return id;
}

/** Creates a user with an application password; returns the `Authorization` header for it. */
export async function seedUser(
  role: Role,
  username: string = role,
): Promise<{ id: number; headers: Record<string, string> }> {
  const rows = await db()
    .insert(schema.users)
    .values({
      username,
      slug: username,
      role,
      name: username,
      email: `${username}@example.com`,
      registered: stamp,
    })
    .returning({ id: schema.users.id });
  const password = `pw-${username}-0123456789`;
  await db()
    .insert(schema.applicationPasswords)
    .values({
      uuid: crypto.randomUUID(),
      userId: rows[0].id,
      name: "test",
      passwordDigest: await sha256Hex(password),
      created: stamp,
    });
  return { id: rows[0].id, headers: { authorization: `Basic ${btoa(`${username}:${password}`)}` } };
}
