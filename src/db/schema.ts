/**
 * Storage schema: the only description of what D1 holds (contract §2).
 *
 * WordPress keeps every post in one table; we keep one table per post type so that each list query
 * filters and sorts on one table with covering indexes, and a small `posts` registry that hands out the
 * shared post-id sequence (events, venues, organizers and media share ids, as in WordPress) and keeps a
 * tombstone after a permanent delete, so an id is never reused and sync clients can learn of deletions.
 *
 * Conventions: SQL snake_case, TypeScript camelCase, wire names live in the serializers.
 * Dates are `Y-m-d H:i:s` strings: `*_date` in the post's local time (site zone for post dates, the
 * event's zone for event start/end), `*_gmt`/`*_utc` in UTC. Strings compare in time order.
 */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { ROLES } from "../access/roles";

/** WordPress post types that share the post-id sequence. */
export const POST_TYPES = ["tribe_events", "tribe_venue", "tribe_organizer", "attachment"] as const;
export type PostType = (typeof POST_TYPES)[number];

/** Taxonomies, by their WordPress names (tec-reference §4.4). */
export const TAXONOMIES = ["tribe_events_cat", "post_tag"] as const;
export type Taxonomy = (typeof TAXONOMIES)[number];

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `user_login`; unique, case-insensitive. */
    username: text("username").notNull(),
    /** `display_name`. */
    name: text("name").notNull().default(""),
    email: text("email").notNull().default(""),
    /** `user_nicename`. */
    slug: text("slug").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** PBKDF2 digest of the login password (never used to authenticate REST calls). */
    passwordDigest: text("password_digest").notNull().default(""),
    registered: text("registered").notNull(),
  },
  (t) => [
    uniqueIndex("users_username_unique").on(sql`lower(${t.username})`),
    uniqueIndex("users_slug_unique").on(t.slug),
  ],
);

/** WordPress application passwords (contract §3): only the SHA-256 digest of the secret is kept. */
export const applicationPasswords = sqliteTable(
  "application_passwords",
  {
    uuid: text("uuid").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    appId: text("app_id").notNull().default(""),
    name: text("name").notNull(),
    /** Hex SHA-256 of the password with spaces removed. */
    passwordDigest: text("password_digest").notNull(),
    created: text("created").notNull(),
  },
  (t) => [
    uniqueIndex("application_passwords_digest_unique").on(t.passwordDigest),
    index("application_passwords_user").on(t.userId),
  ],
);

/**
 * Browser sign-in sessions (contract §3.1, src/users/session.ts): the `wordpress_logged_in` cookie
 * holds a random token; only its SHA-256 digest is kept. Times are Unix milliseconds (UTC).
 */
export const sessions = sqliteTable(
  "sessions",
  {
    /** Hex SHA-256 of the cookie's token. */
    digest: text("digest").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdMs: integer("created_ms").notNull(),
    /** After this instant the session no longer authenticates. */
    expiresMs: integer("expires_ms").notNull(),
  },
  (t) => [index("sessions_user").on(t.userId)],
);

/** The shared post-id sequence and tombstones. A row is never deleted. */
export const posts = sqliteTable(
  "posts",
  {
    id: integer("id").primaryKey(),
    postType: text("post_type", { enum: POST_TYPES }).notNull(),
    /** UTC time of the permanent deletion, null while the post exists. */
    deletedGmt: text("deleted_gmt"),
  },
  (t) => [index("posts_deleted").on(t.postType, t.deletedGmt)],
);

/** Columns every post type has (WordPress `wp_posts`). */
const postColumns = () => ({
  id: integer("id")
    .primaryKey()
    .references(() => posts.id),
  author: integer("author").references(() => users.id, { onDelete: "set null" }),
  status: text("status").notNull().default("publish"),
  /** WordPress `_wp_trash_meta_status`: the status before trashing (decides who may edit it). */
  trashMetaStatus: text("trash_meta_status").notNull().default(""),
  slug: text("slug").notNull(),
  title: text("title").notNull(),
  content: text("content").notNull().default(""),
  excerpt: text("excerpt").notNull().default(""),
  /** SHA-256 of the post password, `""` when the post is not password protected. */
  passwordDigest: text("password_digest").notNull().default(""),
  postDate: text("post_date").notNull(),
  postDateGmt: text("post_date_gmt").notNull(),
  postModified: text("post_modified").notNull(),
  postModifiedGmt: text("post_modified_gmt").notNull(),
  /** Meta `_tribe_aggregator_global_id_lineage`: extra global ids of imported posts. */
  globalIdLineage: text("global_id_lineage", { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
});

/**
 * The change time of events, venues and organizers (contract §7.3), apart from the displayed `modified`:
 * WordPress sets a new post's `post_modified` to its post date (which a client may set to the past)
 * and leaves it alone when a linked venue, organizer or term changes; `modified_after` and `/deleted`
 * must still see every change after the instant asked for. UTC `Y-m-d H:i:s`, set by every write
 * that changes the post or what it shows. Rows written straight into D1 (demo seed, bench dataset,
 * test factories) set it to their `post_modified_gmt`.
 */
const changeColumns = () => ({
  changedGmt: text("changed_gmt").notNull().default(""),
});

export const media = sqliteTable(
  "media",
  {
    ...postColumns(),
    sourceUrl: text("source_url").notNull(),
    altText: text("alt_text").notNull().default(""),
    mimeType: text("mime_type").notNull(),
    width: integer("width"),
    height: integer("height"),
    filesize: integer("filesize"),
  },
  (t) => [index("media_source_url").on(t.sourceUrl)],
);

export const venues = sqliteTable(
  "venues",
  {
    ...postColumns(),
    address: text("address").notNull().default(""),
    city: text("city").notNull().default(""),
    country: text("country").notNull().default(""),
    province: text("province").notNull().default(""),
    state: text("state").notNull().default(""),
    zip: text("zip").notNull().default(""),
    phone: text("phone").notNull().default(""),
    stateprovince: text("stateprovince").notNull().default(""),
    website: text("website").notNull().default(""),
    showMap: integer("show_map", { mode: "boolean" }).notNull().default(true),
    showMapLink: integer("show_map_link", { mode: "boolean" }).notNull().default(true),
    geoLat: real("geo_lat"),
    geoLng: real("geo_lng"),
    imageId: integer("image_id").references(() => media.id, { onDelete: "set null" }),
    ...changeColumns(),
  },
  (t) => [
    uniqueIndex("venues_slug_unique").on(t.slug),
    index("venues_status_date").on(t.status, t.postDate, t.id),
    index("venues_title").on(sql`lower(${t.title})`),
    index("venues_changed").on(t.changedGmt),
    // `GET /deleted`: trashed posts (that were public), newest changes after an instant.
    index("venues_trashed").on(t.status, t.trashMetaStatus, t.changedGmt),
    index("venues_geo").on(t.geoLat, t.geoLng),
  ],
);

export const organizers = sqliteTable(
  "organizers",
  {
    ...postColumns(),
    phone: text("phone").notNull().default(""),
    website: text("website").notNull().default(""),
    email: text("email").notNull().default(""),
    imageId: integer("image_id").references(() => media.id, { onDelete: "set null" }),
    ...changeColumns(),
  },
  (t) => [
    uniqueIndex("organizers_slug_unique").on(t.slug),
    index("organizers_status_date").on(t.status, t.postDate, t.id),
    index("organizers_title").on(sql`lower(${t.title})`),
    index("organizers_changed").on(t.changedGmt),
    // `GET /deleted`: trashed posts (that were public), newest changes after an instant.
    index("organizers_trashed").on(t.status, t.trashMetaStatus, t.changedGmt),
  ],
);

export const events = sqliteTable(
  "events",
  {
    ...postColumns(),
    postParent: integer("post_parent").notNull().default(0),
    /** Event-local wall clock, in `timezone`. */
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    startDateUtc: text("start_date_utc").notNull(),
    endDateUtc: text("end_date_utc").notNull(),
    /** IANA name or `UTC±H[:MM]`. */
    timezone: text("timezone").notNull(),
    timezoneAbbr: text("timezone_abbr").notNull(),
    allDay: integer("all_day", { mode: "boolean" }).notNull().default(false),
    /** The `_EventCost` strings as sent (one or more). */
    cost: text("cost", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    currencySymbol: text("currency_symbol").notNull().default(""),
    /** `prefix`, `postfix` or `""`. */
    currencyPosition: text("currency_position").notNull().default(""),
    currencyCode: text("currency_code").notNull().default(""),
    /** `_EventURL`; null when never set (the permalink is shown instead). */
    website: text("website"),
    showMap: integer("show_map", { mode: "boolean" }).notNull().default(true),
    showMapLink: integer("show_map_link", { mode: "boolean" }).notNull().default(true),
    hideFromListings: integer("hide_from_listings", { mode: "boolean" }).notNull().default(false),
    sticky: integer("sticky", { mode: "boolean" }).notNull().default(false),
    featured: integer("featured", { mode: "boolean" }).notNull().default(false),
    ticketed: integer("ticketed", { mode: "boolean" }).notNull().default(false),
    venueId: integer("venue_id").references(() => venues.id, { onDelete: "set null" }),
    imageId: integer("image_id").references(() => media.id, { onDelete: "set null" }),
    /** iCalendar UID, kept from imports so that re-imports update instead of duplicating. */
    uid: text("uid"),
    ...changeColumns(),
    /**
     * The recurring series the event belongs to (contract §7.8): its own id on a series (the event
     * written with `recurrence`, which is also its first occurrence), the series' id on an override
     * (one occurrence changed on its own, whose id it keeps); null for a single event.
     */
    seriesId: integer("series_id"),
    /**
     * The series' RFC 5545 lines (`RRULE`, `RDATE`, `EXDATE`) as stored (src/events/series/lines.ts:
     * values in the event's zone, within the limits of the input); on the series alone: null on an
     * override, which shows its series' lines (src/events/load.ts `EVENT_COLUMNS`).
     */
    recurrence: text("recurrence", { mode: "json" }).$type<string[]>(),
    /**
     * The original start of the occurrence (RFC 5545 `RECURRENCE-ID`), event-local wall clock: a
     * series' own start, an override's start before it was changed; null for a single event.
     */
    occurrenceStart: text("occurrence_start"),
    /** The wire names of the fields an override sets itself (kept when its series changes them). */
    overrides: text("overrides", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
    /**
     * On an override: its last write came from an import of its series' iCalendar source (a write
     * carrying the series' `uid`, contract §7.9), so that a re-import whose file no longer has it
     * may revert it; any other write of the override clears it. False elsewhere.
     */
    imported: integer("imported", { mode: "boolean" }).notNull().default(false),
    /**
     * On a series: its occurrences starting before this UTC instant are in `event_occurrences`
     * (`Y-m-d H:i:s`; `9999-12-31 23:59:59` once all are); the scheduled handler moves it on.
     */
    horizonGmt: text("horizon_gmt"),
    /**
     * On a series split off another (contract §7.8, `scope=following`): the id of the series it
     * came from; null otherwise (an override shows its series').
     */
    splitFrom: integer("split_from"),
  },
  (t) => [
    // Overrides share their series' slug; the series (and every single event) is unique.
    uniqueIndex("events_slug_unique")
      .on(t.slug)
      .where(sql`${t.seriesId} IS NULL OR ${t.seriesId} = ${t.id}`),
    uniqueIndex("events_uid_unique").on(t.uid),
    // The archive (§6.1): status equality, then start order, hidden events never listed; `end_date`
    // rides along so that counting a date window reads the index only, never the table.
    index("events_archive")
      .on(t.status, t.startDate, t.postDate, t.id, t.endDate)
      .where(sql`${t.hideFromListings} = 0`),
    index("events_start").on(t.startDate, t.postDate, t.id),
    index("events_post_date").on(t.postDate, t.id),
    // WordPress's own list of the post type (`wp/v2/tribe_events`, src/events/wp.ts): by status,
    // newest post date first, without sorting every published event.
    index("events_status_date").on(t.status, t.postDate, t.id),
    index("events_venue").on(t.venueId),
    index("events_parent").on(t.postParent),
    index("events_author").on(t.author, t.status),
    index("events_featured").on(t.featured, t.startDate),
    index("events_changed").on(t.changedGmt),
    // `GET /deleted`: trashed posts (that were public), newest changes after an instant.
    index("events_trashed").on(t.status, t.trashMetaStatus, t.changedGmt),
    // Password-protected events (few): which of them a filter may not read by the fields they
    // blank, asked by id so that the archive indexes stay covering (src/events/filter-visibility.ts).
    index("events_protected").on(t.id).where(sql`${t.passwordDigest} <> ''`),
    // A series' overrides; the series whose occurrences the scheduled handler must extend.
    index("events_series").on(t.seriesId),
    index("events_horizon").on(t.horizonGmt).where(sql`${t.seriesId} = ${t.id}`),
  ],
);

/**
 * The occurrences of recurring series (contract §7.8), materialized from their rules up to the
 * series' `horizon_gmt` so that reads never expand a rule: every occurrence but the series' first
 * (the series' own event row) and those with an override (an event row of their own, with the
 * occurrence's id). An occurrence shows its series' event with its own id and dates. The series'
 * `status`, `hide_from_listings` and `post_date` are copied here by triggers
 * (drizzle/0013_series_triggers.sql), so that a list reads this table's index alone, as it reads
 * `events_archive`. Ids come from the post sequence (a `posts` row each, tombstoned when the
 * occurrence goes).
 */
export const eventOccurrences = sqliteTable(
  "event_occurrences",
  {
    id: integer("id")
      .primaryKey()
      .references(() => posts.id),
    seriesId: integer("series_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    /** RFC 5545 `RECURRENCE-ID`: the start the rule gives, series-local wall clock. */
    occurrenceStart: text("occurrence_start").notNull(),
    startDate: text("start_date").notNull(),
    endDate: text("end_date").notNull(),
    startDateUtc: text("start_date_utc").notNull(),
    endDateUtc: text("end_date_utc").notNull(),
    timezoneAbbr: text("timezone_abbr").notNull(),
    /** The series' (triggers). */
    status: text("status").notNull(),
    hideFromListings: integer("hide_from_listings", { mode: "boolean" }).notNull(),
    postDate: text("post_date").notNull(),
    /** UTC `Y-m-d H:i:s` of the write that made the row (its series' change time counts too). */
    changedGmt: text("changed_gmt").notNull(),
  },
  (t) => [
    uniqueIndex("event_occurrences_start").on(t.seriesId, t.occurrenceStart),
    // `series_id` last: a filter on the series' content (`series_id IN (…)`: categories, tags,
    // search, venue …) is decided from the index alone, without reading each occurrence's row.
    index("event_occurrences_archive")
      .on(t.status, t.startDate, t.postDate, t.id, t.endDate, t.seriesId)
      .where(sql`${t.hideFromListings} = 0`),
    index("event_occurrences_post_date").on(t.postDate, t.id),
    // The occurrences of trashed series (`GET /deleted`): a lookup, not a scan of every occurrence.
    index("event_occurrences_status").on(t.status),
    index("event_occurrences_changed").on(t.changedGmt),
  ],
);

/**
 * Each event's JSON as anonymous readers see it, rendered ahead: list pages and single
 * GETs are built from these texts instead of from the event, its venue, organizers, terms and image
 * (src/events/rendering/format.ts). The texts stand for the request's URLs and the terms' counts with
 * marks, filled in per request. A row is marked `stale` (and its `gen` drawn anew) by triggers in the
 * same transaction as any write that changes what it shows (drizzle/0010_event_rendering_triggers.sql);
 * stale rows are rendered again after the write, or by the first read that needs them. A rendering
 * made for other settings or code (`render_key`) counts as stale.
 */
export const eventRenderings = sqliteTable(
  "event_renderings",
  {
    eventId: integer("event_id")
      .primaryKey()
      .references(() => events.id, { onDelete: "cascade" }),
    /** The event as a list shows it (JSON with marks); null until rendered. */
    list: text("list"),
    /** The event as a single GET shows it, `json_ld` included; null until rendered. */
    single: text("single"),
    /**
     * On a series: its other occurrences as a list shows them, with marks for what each shows of
     * its own (id, dates, original start); null otherwise (src/events/rendering/format.ts).
     */
    occurrence: text("occurrence"),
    /** On a series: its other occurrences as their single GET shows them (`json_ld` included), with the same marks; null otherwise. */
    occurrenceSingle: text("occurrence_single"),
    /** What the texts were rendered for (format, settings, code): src/events/rendering/format.ts `renderKey`. */
    renderKey: text("render_key").notNull().default(""),
    stale: integer("stale", { mode: "boolean" }).notNull().default(true),
    /**
     * Drawn anew with every marking (random, below 2^53): a rendering is stored only if nothing
     * changed since its data was read, and `event_id:gen` names one rendering for good.
     */
    gen: integer("gen").notNull().default(0),
  },
  (t) => [index("event_renderings_stale").on(t.eventId).where(sql`${t.stale} = 1`)],
);

/** Categories (`tribe_events_cat`) and tags (`post_tag`) share one term-id sequence. */
export const terms = sqliteTable(
  "terms",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    taxonomy: text("taxonomy", { enum: TAXONOMIES }).notNull(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    description: text("description").notNull().default(""),
    parent: integer("parent").notNull().default(0),
    termGroup: integer("term_group").notNull().default(0),
    /** Published events using the term, kept current by every write that changes them (WordPress keeps it too). */
    count: integer("count").notNull().default(0),
    modifiedGmt: text("modified_gmt").notNull().default(""),
  },
  (t) => [
    uniqueIndex("terms_taxonomy_slug_unique").on(t.taxonomy, t.slug),
    index("terms_taxonomy_name").on(t.taxonomy, sql`lower(${t.name})`),
    index("terms_parent").on(t.taxonomy, t.parent),
  ],
);

/**
 * Tombstones of permanently deleted categories and tags (terms have no trash), so that sync clients
 * learn of them (`GET /deleted`), as `posts.deleted_gmt` does for posts. Term ids are never reused.
 */
export const deletedTerms = sqliteTable(
  "deleted_terms",
  {
    id: integer("id").primaryKey(),
    taxonomy: text("taxonomy", { enum: TAXONOMIES }).notNull(),
    /** UTC `Y-m-d H:i:s` of the deletion. */
    deletedGmt: text("deleted_gmt").notNull(),
  },
  (t) => [index("deleted_terms_deleted").on(t.deletedGmt)],
);

export const eventTerms = sqliteTable(
  "event_terms",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    termId: integer("term_id")
      .notNull()
      .references(() => terms.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.termId] }),
    index("event_terms_term").on(t.termId, t.eventId),
  ],
);

export const eventOrganizers = sqliteTable(
  "event_organizers",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id, { onDelete: "cascade" }),
    organizerId: integer("organizer_id")
      .notNull()
      .references(() => organizers.id, { onDelete: "cascade" }),
    /** Order in which the organizers were given (0-based). */
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.organizerId] }),
    index("event_organizers_organizer").on(t.organizerId, t.eventId),
  ],
);

/**
 * One row (id 1): the content version (docs: caching). SQL triggers move it inside the transaction
 * of every write that changes something anonymous readers can see
 * (drizzle/0011_content_version_triggers.sql), and every anonymous answer the read cache keeps is
 * keyed by the version its data was read at (src/read-cache). Writes nobody anonymous can see (a
 * draft, a user, an application password) leave it alone, and with it every cached answer.
 */
export const contentVersion = sqliteTable("content_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull(),
  /**
   * The sync clock (contract §7.3): the position of the latest change in `sync_log`, moved by the
   * triggers of drizzle/0019_sync_log.sql in the transaction of every change, so that positions
   * follow the order in which writes commit (D1 runs one write at a time), whatever the clocks.
   */
  seq: integer("seq").notNull().default(0),
  /**
   * `seq` as of the last change anonymous readers can see: moved only together with `version`, so
   * that an anonymous answer's cursor is a function of the version it is cached under.
   */
  versionSeq: integer("version_seq").notNull().default(0),
});

/** What `sync_log` calls each kind of thing (the `type` of `GET /deleted`). */
export const SYNC_TYPES = ["event", "venue", "organizer", "category", "tag"] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

/**
 * The sync log (contract §7.3): per event (occurrences included), venue, organizer, category and
 * tag, the position of its last change and, while readers can no longer see all of it, why and
 * since when — written only by the triggers of drizzle/0019_sync_log.sql, inside every write's own
 * transaction. Positions come from `content_version.seq`, so a list read in one snapshot with the
 * position it was read at (its cursor) misses no change: every later commit has a higher position.
 *
 * Two audiences: `public_*` — anonymous readers (and users who may not edit others' posts), for
 * whom a post leaves when it is trashed, deleted, unpublished, made private, hidden from listings,
 * or password-protected (listed blanked); `editor_*` — editors, whose lists show every status, for
 * whom a post leaves when trashed, deleted or hidden, or is protected. `*_seq` is the position at
 * which it left that audience's view (null while it is in view, or if it never was), `*_status`
 * why, `*_gmt` when (UTC `Y-m-d H:i:s`).
 */
export const syncLog = sqliteTable(
  "sync_log",
  {
    type: text("type", { enum: SYNC_TYPES }).notNull(),
    id: integer("id").notNull(),
    /** Position of the last change (what the lists' `sync_cursor` filters on). */
    seq: integer("seq").notNull(),
    publicSeq: integer("public_seq"),
    publicStatus: text("public_status"),
    publicGmt: text("public_gmt"),
    editorSeq: integer("editor_seq"),
    editorStatus: text("editor_status"),
    editorGmt: text("editor_gmt"),
    /** A cancelled occurrence's series and original start (RFC 5545 `RECURRENCE-ID`, series-local). */
    seriesId: integer("series_id"),
    occurrenceStart: text("occurrence_start"),
  },
  (t) => [
    primaryKey({ columns: [t.type, t.id] }),
    index("sync_log_changed").on(t.type, t.seq, t.id),
    index("sync_log_public").on(t.publicSeq).where(sql`${t.publicSeq} IS NOT NULL`),
    index("sync_log_editor").on(t.editorSeq).where(sql`${t.editorSeq} IS NOT NULL`),
    // The cancelled occurrences of a series, which become deleted with it.
    index("sync_log_series").on(t.seriesId).where(sql`${t.seriesId} IS NOT NULL`),
  ],
);

/**
 * The id sequences (contract §2: ids as in WordPress, shared and never reused): `post` numbers
 * events, venues, organizers and media, `term` categories and tags. A write reserves the ids it
 * needs with one atomic `UPDATE … RETURNING` before its batch (src/db/ids.ts), so parallel writes can
 * never pick the same id. `next` is the next free id.
 */
export const idSequences = sqliteTable("id_sequences", {
  name: text("name", { enum: ["post", "term"] }).primaryKey(),
  next: integer("next").notNull(),
});

/**
 * Webhooks (contract §7.5): who is told of changes, and how. `events` are the subscribed types
 * (src/webhooks/events.ts; `"*"` = every per-object type). The signing secret must be usable to
 * sign, so it cannot be a digest: it is kept AES-GCM encrypted with the `WEBHOOK_SECRET_KEY`
 * secret (src/webhooks/secret.ts) and shown only once, when the webhook is created.
 */
export const webhooks = sqliteTable("webhooks", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  url: text("url").notNull(),
  events: text("events", { mode: "json" }).$type<string[]>().notNull(),
  description: text("description").notNull().default(""),
  /** Seconds: at most one `calendar.changed` delivery per this many. */
  coalesceSeconds: integer("coalesce_seconds").notNull().default(30),
  status: text("status", { enum: ["active", "disabled"] })
    .notNull()
    .default("active"),
  /** `v1.` + base64 of IV ‖ AES-GCM ciphertext of the secret's bytes. */
  secretCiphertext: text("secret_ciphertext").notNull(),
  /** Messages dropped in a row (reset by any successful delivery); 50 disables the webhook. */
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  createdGmt: text("created_gmt").notNull(),
  modifiedGmt: text("modified_gmt").notNull(),
});

/**
 * Changes committed by writes, waiting to be turned into queue messages. Rows are written by
 * triggers on `events`, `venues`, `organizers` and `terms` (drizzle/0007_webhooks.sql), inside the
 * write's own batch: a rolled-back write leaves none, a committed one cannot lose them. Only while
 * some webhook is active. The worker drains them after each successful write (src/webhooks/dispatch.ts).
 */
export const webhookOutbox = sqliteTable("webhook_outbox", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** `event`, `venue`, `organizer`, `category`, `tag`. */
  kind: text("kind").notNull(),
  objectId: integer("object_id").notNull(),
  /** `created`, `updated`, `trashed`, `deleted`. */
  action: text("action").notNull(),
  /** Post status after the change (`deleted` once gone; `publish` for terms). */
  status: text("status").notNull(),
  /** Post status before the change (null for a creation and for terms). */
  oldStatus: text("old_status"),
  /** UTC `Y-m-d H:i:s`: the object's modification time, or the deletion time. */
  modifiedGmt: text("modified_gmt").notNull(),
  /** UTC `Y-m-d H:i:s` of the commit. */
  createdGmt: text("created_gmt").notNull(),
  /** The dispatch run that holds the row, and until when (UTC); a lapsed claim is taken again. */
  claim: text("claim"),
  claimedUntil: text("claimed_until"),
});

/**
 * The open `calendar.changed` window of a webhook (coalescing): changes counted since `since_gmt`;
 * one delayed queue message (sent by whoever opened the window, `token`) closes it after
 * `coalesce_seconds` and delivers the counts.
 */
export const webhookWindows = sqliteTable("webhook_windows", {
  webhookId: integer("webhook_id")
    .primaryKey()
    .references(() => webhooks.id, { onDelete: "cascade" }),
  token: text("token").notNull(),
  sinceGmt: text("since_gmt").notNull(),
  untilGmt: text("until_gmt").notNull(),
  events: integer("events").notNull().default(0),
  venues: integer("venues").notNull().default(0),
  organizers: integer("organizers").notNull().default(0),
  categories: integer("categories").notNull().default(0),
  tags: integer("tags").notNull().default(0),
});

/** One row per delivery attempt (`GET /webhooks/{id}/deliveries`, newest first). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    webhookId: integer("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    /** The Standard Webhooks `webhook-id`, the same on every attempt of one message. */
    messageId: text("message_id").notNull(),
    type: text("type").notNull(),
    /** 1-based. */
    attempt: integer("attempt").notNull(),
    /** The receiver's HTTP status; null when there was no answer. */
    statusCode: integer("status_code"),
    /** Why the attempt failed; null when it succeeded. */
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    createdGmt: text("created_gmt").notNull(),
    /** UTC time of the next attempt; null after a success and after the last attempt. */
    nextAttemptGmt: text("next_attempt_gmt"),
  },
  (t) => [index("webhook_deliveries_webhook").on(t.webhookId, t.id)],
);
