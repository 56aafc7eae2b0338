/**
 * The state of one write operation between its read batch and its write batch: who writes, when,
 * the ids it may hand out, the guards and statements collected for the write batch, and whether
 * anything it changes is visible to anonymous readers.
 */
import type { DateTime } from "luxon";
import type { AuthUser } from "../access/capabilities";
import type { Settings } from "../settings";
import type { BatchQuery } from "./batch";
import type { Db } from "./client";
import type { IdAllocator } from "./ids";
import { postDates } from "./write";

export interface WritePlan {
  db: Db;
  user: AuthUser;
  settings: Settings;
  now: DateTime;
  /** `post_date`-style stamps of `now`: site-local and UTC. */
  stamp: { local: string; gmt: string };
  postIds: IdAllocator;
  termIds: IdAllocator;
  /**
   * Statements that fail the batch as a conflict when a decision taken on the reads no longer holds
   * (`unlessChanged`): they run first, before anything of this write is in the tables.
   */
  guards: BatchQuery[];
  /** Statements of the write batch, in order (after the guards). */
  statements: BatchQuery[];
  /**
   * MIME type of every new image URL the write names, as checked before the plan (the check is I/O,
   * the plan is not: src/media/image-ref.ts `checkNewImageUrls`).
   */
  imageTypes: ReadonlyMap<string, string>;
}

export function newPlan(
  fields: Omit<WritePlan, "stamp" | "statements" | "guards" | "imageTypes"> & {
    imageTypes?: ReadonlyMap<string, string>;
  },
): WritePlan {
  return {
    ...fields,
    imageTypes: fields.imageTypes ?? new Map(),
    stamp: postDates(fields.now, fields.settings.siteTimezone),
    guards: [],
    statements: [],
  };
}
