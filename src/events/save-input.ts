/**
 * What an event save's plan is built from and what it answers (src/events/save-plan.ts), shared by
 * the event's own save (src/events/save.ts) and the writes of occurrences (src/events/series/).
 */
import type { DateTime } from "luxon";
import type { AuthUser } from "../access/capabilities";
import type { BatchQuery, NamedBatch } from "../db/batch";
import type { Taxonomy } from "../db/schema";
import type { ArgValues } from "../http/args";
import type { LinkedInput } from "../linked-posts/nested";
import type { Settings } from "../settings";
import type { TermRefs } from "../terms/assign";
import type { EventRow } from "./record";
import type { SeriesState } from "./series/save";
import type { CREATE_ARGS } from "./write-args";

/** The links of the event as read: organizer ids in order, term ids per taxonomy. */
export interface EventLinks {
  organizers: number[];
  terms: Record<Taxonomy, number[]>;
}

/** Everything the plan is built from. */
export interface EventSaveInput {
  user: AuthUser;
  settings: Settings;
  now: DateTime;
  /** The event as read (null: a create). */
  existing: EventRow | null;
  /** Its links as read, whatever the viewer may see (empty for a create). */
  links: EventLinks;
  a: ArgValues<typeof CREATE_ARGS>;
  sent: Set<string>;
  venue?: LinkedInput;
  organizer?: LinkedInput;
  categories?: TermRefs;
  tags?: TermRefs;
  /** Media id or URL; null removes the image; undefined leaves it. */
  image?: number | string | null;
  /** MIME types of the new image URLs, checked before the plan (src/media/image-ref.ts). */
  imageTypes: ReadonlyMap<string, string>;
  /** Digest of the `password` sent (`""` removes it); undefined leaves it. */
  passwordDigest?: string;
  /** The slug base when a slug is to be (re)decided, and the slugs taken among its variants. */
  slug: { base: string; taken: Array<{ id: number; slug: string }> } | null;
  reads: NamedBatch;
  /** `recurrence` as sent (`[]` ends a series' repetition); undefined when not sent (contract §7.8). */
  recurrence?: string[];
  /** The series' occurrences and overrides as read (empty for a single event). */
  series: SeriesState;
  /** Materialize the series again though neither its dates nor its lines change (a split). */
  rematerialize?: boolean;
}

export interface EventSavePlan {
  id: number;
  /** The write's post-date stamp: site-local and UTC `Y-m-d H:i:s`. */
  stamp: { local: string; gmt: string };
  /** False for an update that changes nothing: nothing is written. */
  changed: boolean;
  /** The guards, then the statements of the write batch. */
  statements: BatchQuery[];
}
