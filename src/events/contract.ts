/**
 * The event's contract (tec-reference §4.1, §2.3, §4.7, §8.2; contract §4 rows 10, 18, 20): every
 * wire field once — what is sent and how it is read from the event record, the argument that
 * writes it, its column, what password protection shows instead, who may write it — and what is
 * derived from it: `CREATE_ARGS` (in TEC's order; the edit arguments are these, unrequired), the
 * `/doc` component `Event`, the write mapping of the plain columns (src/events/save-plan.ts), the
 * protection of §4.7 (src/events/visible.ts) and the event object (src/events/serialize.ts, typed
 * by `Event`). Fields without `out` are written only (the cost's currency, the iCalendar `uid`,
 * `ticketed`, `password`).
 */
import * as v from "valibot";
import { arg } from "../http/args";
import { argSpecs, NOTHING_HIDDEN, wireSchema } from "../http/contract";
import { EventJsonLd } from "../http/json-ld-schemas";
import { d, emptyList, flag, image, int, ref, str } from "../http/schema-kit";
import { nonEmptyString, wpBoolean } from "../http/validators";
import { eventImageRef, postStatus, userId, websiteOrEmpty } from "../linked-posts/fields";
import { Organizer } from "../linked-posts/organizer";
import {
  globalIdFields,
  jsonLdField,
  LINEAGE_ARGS,
  MAP_FLAG_ARGS,
  mapFlagFields,
  POST_DATE_ARGS,
  postDateFields,
} from "../linked-posts/post-fields";
import { Venue } from "../linked-posts/venue";
import { imageObject } from "../media/serialize";
import { EventTerm, embeddedTerm } from "../terms/contract";
import type { TermRow } from "../terms/serialize";
import { autop } from "../text/html";
import { costValues } from "./cost";
import { DATE_ARGS, EVENT_DATE_FIELDS } from "./date-fields";
import { type EventField, type EventView, text, writable } from "./field-kit";
import { eventUid, type VisibleEvent } from "./record";
import { cancelledStarts, originalStart } from "./series/views";
import {
  costInput,
  currencyCode,
  currencyPosition,
  currencySymbol,
  password,
  raw,
  recurrenceLines,
  uid,
} from "./write-validators";

/** §4.1 `cost_details`, §4.8 `values` (numbers as strings, words as their key). */
export const CostDetails = v.strictObject({
  currency_symbol: str("cost_details.currency_symbol"),
  currency_code: str("cost_details.currency_code"),
  currency_position: d(v.picklist(["prefix", "postfix", ""]), "cost_details.currency_position"),
  values: d(v.array(v.string()), "cost_details.values"),
});

/**
 * `series` of an event of a recurring series (contract §7.8): the series' id (its first event), its
 * lines, this occurrence's original start (RFC 5545 `RECURRENCE-ID`) as a wall clock and as RFC 3339
 * with its offset, the zone, the series' iCalendar UID (the feed's), the series it was split from,
 * and the dates it cancels — Google Calendar's `recurringEventId`, `recurrence`,
 * `originalStartTime`, `iCalUID`.
 */
export const Series = v.strictObject({
  id: int("series.id"),
  recurrence: d(v.array(v.string()), "series.recurrence"),
  occurrence_start: str("series.occurrence_start"),
  original_start: str("series.original_start"),
  timezone: str("series.timezone"),
  uid: str("series.uid"),
  split_from: d(v.nullable(v.pipe(v.number(), v.integer())), "series.split_from"),
  cancelled: d(v.array(v.string()), "series.cancelled"),
});

/** What the fields read (src/events/field-kit.ts), as the serializer knows it. */
export type { EventView };

const stored = (key: string, column: string) =>
  ({
    out: flag(`event.${key}`),
    arg: arg({ schema: wpBoolean, type: "boolean", description: `events.write.${key}` }),
    column,
    blank: null,
  }) satisfies EventField;
const links = (key: string, read: (r: EventView) => unknown, out: v.GenericSchema) =>
  ({
    out: d(out, `event.${key}`),
    read,
    arg: arg({
      schema: raw,
      swaggerType: "array",
      items: { type: "integer" },
      description: `events.write.${key}`,
    }),
  }) satisfies EventField;
/** Categories or tags: blanked to `[]`, the terms of the taxonomy gone from the record. */
const termLinks = (key: string, taxonomy: TermRow["taxonomy"]) =>
  ({
    ...links(
      key,
      (r) => r.terms.filter((t) => t.taxonomy === taxonomy).map((t) => embeddedTerm(r.ctx, t)),
      v.array(EventTerm),
    ),
    blank: [],
    hides: (e: VisibleEvent) => {
      e.terms = e.terms.filter((t) => t.taxonomy !== taxonomy);
    },
  }) satisfies EventField;

/** The event's wire fields, in the order they are sent (§4.1), then those only written. */
export const EVENT_FIELDS = {
  id: { out: int("event.id"), read: (r: EventView) => r.row.id },
  ...globalIdFields("event", "events.write"),
  author: {
    out: d(v.pipe(v.string(), v.regex(/^\d+$/)), "event.author"),
    read: (r: EventView) => (r.row.author === null ? "0" : String(r.row.author)),
    arg: arg({ schema: userId, type: "integer", description: "events.write.author" }),
  },
  status: { ...text("status", (r) => r.row.status), ...writable("status", postStatus) },
  ...postDateFields((key, column) => text(key, (r) => r.row[column]), "events.write"),
  url: text("url", (r) => r.url),
  rest_url: text("rest_url", (r) => `${r.ctx.urls.namespaceRoot}events/${r.row.id}`),
  title: {
    ...text("title", (r) => r.row.title),
    arg: arg({
      schema: nonEmptyString,
      required: true,
      type: "string",
      description: "events.write.title",
    }),
    column: "title",
    write: (x: string, html) => html.data(x),
  },
  description: {
    ...text("description", (r) => autop(r.row.content)),
    ...writable("description", nonEmptyString),
    column: "content",
    write: (x: string, html) => html.post(x),
    blank: "",
  },
  excerpt: {
    ...text("excerpt", (r) => autop(r.row.excerpt)),
    ...writable("excerpt", nonEmptyString),
    column: "excerpt",
    write: (x: string, html) => html.post(x),
    blank: "",
  },
  slug: { ...text("slug", (r) => r.row.slug), ...writable("slug", nonEmptyString) },
  image: {
    out: image("event.image"),
    read: (r: EventView) => imageObject(r.record.image),
    ...writable("image", eventImageRef),
    blank: false,
    hides: (e: VisibleEvent) => {
      e.image = null;
      e.row.imageId = null;
    },
  },
  ...EVENT_DATE_FIELDS,
  cost: {
    ...text("cost", (r) => r.cost),
    arg: arg({ schema: costInput, swaggerType: "string", description: "events.write.cost" }),
    blank: "",
    hides: (e: VisibleEvent) => {
      e.row.cost = [];
    },
  },
  cost_details: {
    out: ref(CostDetails, "event.cost_details"),
    read: (r: EventView) => ({
      currency_symbol: r.row.currencySymbol,
      currency_code: r.row.currencyCode,
      currency_position: r.row.currencyPosition,
      values: costValues(r.row.cost),
    }),
    blank: { currency_symbol: "", currency_position: "", currency_code: "", values: [] },
    hides: (e: VisibleEvent) => {
      e.row.cost = [];
      e.row.currencySymbol = "";
      e.row.currencyCode = "";
      e.row.currencyPosition = "";
    },
  },
  website: {
    ...text("website", (r) => r.row.website ?? r.page),
    arg: arg({
      schema: websiteOrEmpty,
      swaggerType: "string",
      description: "events.write.website",
    }),
    column: "website",
    blank: "",
  },
  ...mapFlagFields("event", "events.write"),
  hide_from_listings: stored("hide_from_listings", "hideFromListings"),
  sticky: stored("sticky", "sticky"),
  featured: stored("featured", "featured"),
  categories: termLinks("categories", "tribe_events_cat"),
  tags: termLinks("tags", "post_tag"),
  // Not blanked themselves (TEC sends `[]`): a blanked event's venue and organizers are blanked,
  // their names kept (contract §4 row 18, src/events/visible.ts).
  venue: links("venue", (r) => r.venue, v.union([Venue, emptyList])),
  organizer: links("organizer", (r) => r.organizers, v.array(Organizer)),
  custom_fields: {
    out: d(emptyList, "event.custom_fields"),
    read: () => [],
    blank: [],
    hides: NOTHING_HIDDEN,
  },
  // Sent only by the events of a recurring series (a single event's JSON is as before).
  series: {
    out: v.optional(ref(Series, "event.series")),
    read: (r: EventView) =>
      r.row.seriesId === null
        ? undefined
        : {
            id: r.row.seriesId,
            recurrence: r.row.recurrence ?? [],
            occurrence_start: r.row.occurrenceStart ?? r.row.startDate,
            original_start: originalStart(r.row),
            timezone: r.row.timezone,
            uid: eventUid(r.ctx, { id: r.row.seriesId, uid: r.row.uid }),
            split_from: r.row.splitFrom,
            cancelled: cancelledStarts(r.row),
          },
  },
  ...jsonLdField(EventJsonLd, "event", (r: EventView) => r.jsonLd),
  // Written only: the contract's additions and what imports keep of their source.
  ticketed: {
    arg: arg({ schema: wpBoolean, type: "boolean", description: "events.write.ticketed" }),
    column: "ticketed",
  },
  password: writable("password", password),
  recurrence: {
    arg: arg({
      schema: recurrenceLines,
      swaggerType: "array",
      items: { type: "string" } as never,
      description: "events.write.recurrence",
    }),
  },
  uid: { ...writable("uid", uid), column: "uid" },
  currency_symbol: { ...writable("currency_symbol", currencySymbol), column: "currencySymbol" },
  currency_position: {
    ...writable("currency_position", currencyPosition),
    column: "currencyPosition",
  },
  currency_code: { ...writable("currency_code", currencyCode), column: "currencyCode" },
} satisfies Record<string, EventField>;

/** `POST /events` arguments (§2.3, TEC's order, then the contract's additions). */
export const CREATE_ARGS = argSpecs(EVENT_FIELDS, [
  "author",
  ...POST_DATE_ARGS,
  "title",
  "description",
  "slug",
  "excerpt",
  "status",
  ...DATE_ARGS,
  "image",
  "cost",
  "website",
  ...MAP_FLAG_ARGS,
  "hide_from_listings",
  "sticky",
  "featured",
  "categories",
  "tags",
  "venue",
  "organizer",
  "ticketed",
  "password",
  "recurrence",
  "uid",
  "currency_symbol",
  "currency_position",
  "currency_code",
  ...LINEAGE_ARGS,
]);

/** §4.1: every key always present (`json_ld` on single GETs). */
export const Event = wireSchema(EVENT_FIELDS);

/** The event object as sent. */
export type EventObject = v.InferOutput<typeof Event>;
