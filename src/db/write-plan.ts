/**
 * The state of one write operation between its read batch and its write batch: who writes, when,
 * the id sequences read in the read batch, and the statements collected for the write batch.
 */
import type { DateTime } from "luxon";
import type { Settings } from "../settings";
import type { AuthUser } from "../users/capabilities";
import type { BatchQuery, IdAllocator } from "./batch";
import type { Db } from "./client";
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
  /** Statements of the write batch, in order. */
  statements: BatchQuery[];
}

export function newPlan(fields: Omit<WritePlan, "stamp" | "statements">): WritePlan {
  return { ...fields, stamp: postDates(fields.now, fields.settings.siteTimezone), statements: [] };
}
