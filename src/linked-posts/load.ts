/**
 * Loading one venue or organizer with its image (by id or slug) as a pair of queries that fit in any
 * batch — a read batch of its own, or the end of a write batch that answers with the saved post.
 */
import { eq, sql } from "drizzle-orm";
import { runBatch } from "../db/batch";
import type { Db } from "../db/client";
import { media } from "../db/schema";
import type { MediaRow } from "../media/serialize";
import { commonTable } from "./kinds";
import type { LinkedKind, OrganizerRow, VenueRow } from "./record";

/** A venue or organizer row; which one is known from the kind it was loaded for. */
export type LinkedRow = VenueRow | OrganizerRow;

/** A post named by id or by slug (slugs are stored lower case). */
export type LinkedKey = { id: number } | { slug: string };

/** A loaded post with its featured image. */
export interface LinkedRecord {
  row: LinkedRow;
  image: MediaRow | null;
}

/** The two queries (the row, its image) for one post; read their results with `linkedFromResults`. */
export function linkedLoadQueries(db: Db, kind: LinkedKind, key: LinkedKey) {
  const t = commonTable(kind);
  const match = "id" in key ? eq(t.id, key.id) : eq(t.slug, key.slug);
  return {
    rows: db.select().from(t).where(match),
    images: db
      .select()
      .from(media)
      .where(sql`${media.id} = (SELECT ${t.imageId} FROM ${t} WHERE ${match})`),
  };
}

/** The results of `linkedLoadQueries`. */
export interface LinkedLoad {
  rows: LinkedRow[];
  images: MediaRow[];
}

/** The record from the results of `linkedLoadQueries`, or null when there is no such post. */
export function linkedFromResults({ rows, images }: LinkedLoad): LinkedRecord | null {
  return rows[0] ? { row: rows[0], image: images[0] ?? null } : null;
}

/** Loads one post in one D1 round trip. */
export async function loadLinked(
  db: Db,
  kind: LinkedKind,
  key: LinkedKey,
): Promise<LinkedRecord | null> {
  return linkedFromResults((await runBatch(db, { post: linkedLoadQueries(db, kind, key) })).post);
}
