/**
 * The wire fields venues and organizers share (tec-reference §4.2, §4.3, §2.6, §2.7, §8.6), for
 * their contracts (src/linked-posts/venue.ts, src/linked-posts/organizer.ts): the post fields
 * first, then the global ids last. Keys other than `id` and the global ids are left out when empty
 * (quirk 17), so their schemas are optional. `/doc` descriptions are `doc.schemas.{kind}.{field}`,
 * argument descriptions `args.{kind}s.{field}`. The post dates, the global ids and `json_ld` are
 * the event's too (src/events/contract.ts), declared here once for every post.
 */
import * as v from "valibot";
import { arg } from "../http/args";
import { LEFT_OUT, NOTHING_HIDDEN, type WireField } from "../http/contract";
import type { Shown } from "../http/password-protection";
import { globalId, type RenderContext } from "../http/render";
import { d, flag, image, int, opt, ref, str } from "../http/schema-kit";
import { nonEmptyString, timeInput, wpBoolean } from "../http/validators";
import { imageObject, type MediaRow } from "../media/serialize";
import { autop } from "../text/html";
import type { HtmlFilters } from "../text/kses";
import { sanitizeString } from "../text/plain";
import {
  globalIdLineage,
  imageRef,
  postStatus,
  stringOrEmpty,
  userId,
  websiteOrEmpty,
} from "./fields";
import type { LinkedKind } from "./record";

/** The columns of a post's dates. */
type PostDateColumn = "postDate" | "postDateGmt" | "postModified" | "postModifiedGmt";

/**
 * The post's dates (§4.1, §4.2, §4.3), in wire order: `date` and `date_utc` (site time and UTC,
 * writable as `is_time` inputs, §2.3, §2.6), `modified` and `modified_utc` (read only).
 * @param field the field as sent, read from its column (`out`, `read`).
 * @param args the argument descriptions' prefix (`events.write`, `venues`).
 */
export function postDateFields<F extends WireField<never>>(
  field: (key: string, column: PostDateColumn) => F,
  args: string,
) {
  const writable = (key: string, column: PostDateColumn) => ({
    ...field(key, column),
    arg: arg({ schema: timeInput, type: "string", description: `${args}.${key}` }),
  });
  return {
    date: writable("date", "postDate"),
    date_utc: writable("date_utc", "postDateGmt"),
    modified: field("modified", "postModified"),
    modified_utc: field("modified_utc", "postModifiedGmt"),
  };
}

/** The writable post dates, in TEC's argument order. */
export const POST_DATE_ARGS = ["date", "date_utc"] as const;

/**
 * The post date a write sends (§2.3, §2.6): `date_utc` (UTC) before `date` (site time, or the
 * event's zone); undefined when it sends neither.
 */
export function sentPostDate(a: {
  date?: string;
  date_utc?: string;
}): { value: string; utc: boolean } | undefined {
  if (a.date_utc !== undefined) return { value: a.date_utc, utc: true };
  if (a.date !== undefined) return { value: a.date, utc: false };
  return undefined;
}

/** What `postFields` read of a venue or organizer row. */
interface PostRow {
  id: number;
  author: number | null;
  status: string;
  postDate: string;
  postDateGmt: string;
  postModified: string;
  postModifiedGmt: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  imageId: number | null;
  globalIdLineage: string[];
}

/** A venue or organizer with its featured image, as loaded. */
export interface LinkedPost<Row extends PostRow = PostRow> {
  row: Row;
  image: MediaRow | null;
}

/**
 * What a venue's or organizer's fields read (§4.2, §4.3): the post as the viewer may see it
 * (src/linked-posts/access.ts), its global ids and the request.
 */
export interface LinkedView<Row extends PostRow = PostRow> extends LinkedPost<Row>, Shown {
  ctx: RenderContext;
  ids: GlobalIds;
}

/** The view of a post its fields read. */
export const linkedView = <Row extends PostRow>(
  ctx: RenderContext,
  post: LinkedPost<Row> & Shown,
): LinkedView<Row> => ({ ...post, ctx, ids: globalIds(ctx, post.row) });

/**
 * The post fields, in wire order, up to the image (§4.2, §4.3); the name is under the kind's own
 * key (`venue`, `organizer`).
 */
export const postFields = <K extends LinkedKind>(kind: K) => {
  const p = `${kind}s`;
  const name = {
    out: opt(`${kind}.${kind}`),
    arg: arg({
      schema: nonEmptyString,
      required: true,
      type: "string",
      description: `${p}.${kind}`,
    }),
    column: "title",
    write: (x: string, html: HtmlFilters) => html.data(x),
  } satisfies WireField;
  const html = (field: "description" | "excerpt", column: "content" | "excerpt") =>
    ({
      out: opt(`${kind}.${field}`),
      read: (r: LinkedView) => autop(r.row[column]),
      arg: arg({ schema: stringOrEmpty, type: "string", description: `${p}.${field}` }),
      column,
      write: (x: string, filters: HtmlFilters) => filters.post(x),
      blank: "",
    }) satisfies WireField<LinkedView>;
  return {
    id: { out: int(`${kind}.id`), read: (r: LinkedView) => r.row.id },
    author: {
      out: v.optional(d(v.pipe(v.string(), v.regex(/^\d+$/)), `${kind}.author`)),
      read: (r: LinkedView) => (r.row.author === null ? "0" : String(r.row.author)),
      arg: arg({ schema: userId, type: "integer", description: `${p}.author` }),
    },
    status: {
      out: opt(`${kind}.status`),
      read: (r: LinkedView) => r.row.status,
      arg: arg({ schema: postStatus, type: "string", description: `${p}.status` }),
    },
    ...postDateFields(
      (key, column) => ({ out: opt(`${kind}.${key}`), read: (r: LinkedView) => r.row[column] }),
      p,
    ),
    url: {
      out: opt(`${kind}.url`),
      read: (r: LinkedView) => `${r.ctx.urls.site}/${kind}/${r.row.slug}/`,
    },
    ...({ [kind]: name } as { [N in K]: typeof name }),
    description: html("description", "content"),
    excerpt: html("excerpt", "excerpt"),
    slug: { out: opt(`${kind}.slug`), read: (r: LinkedView) => r.row.slug },
    image: {
      out: v.optional(image(`${kind}.image`)),
      read: (r: LinkedView) => imageObject(r.image),
      arg: arg({ schema: imageRef, type: "string", description: `${p}.image` }),
      blank: false,
      hides: (post: LinkedPost) => {
        post.image = null;
        post.row.imageId = null;
      },
    },
  } satisfies Record<string, WireField<LinkedView, LinkedPost>>;
};

/** The arguments every linked post takes first (§2.6, §2.7 order): the post fields and the lineage. */
export const postArgs = <K extends LinkedKind>(kind: K) =>
  ["author", ...POST_DATE_ARGS, ...LINEAGE_ARGS, kind, "description", "excerpt", "status"] as const;

/** A post's global ids as sent (§4.1): its own, and its lineage after it. */
export interface GlobalIds {
  global_id: string;
  global_id_lineage: string[];
}

/**
 * The global ids, always sent (§4.1), for any post (events, venues, organizers). The lineage is
 * written by importers, which match posts on it (contract §7): only editors and administrators may
 * write it, or an author could make an import overwrite their post.
 * @param doc the `/doc` description prefix (`event`); @param args the argument's (`events.write`).
 */
export const globalIdFields = (doc: string, args: string) =>
  ({
    global_id: { out: str(`${doc}.global_id`), read: (r: { ids: GlobalIds }) => r.ids.global_id },
    global_id_lineage: {
      out: d(v.array(v.string()), `${doc}.global_id_lineage`),
      read: (r: { ids: GlobalIds }) => r.ids.global_id_lineage,
      arg: arg({
        schema: globalIdLineage,
        swaggerType: "array",
        items: { type: "string" },
        description: `${args}.global_id_lineage`,
      }),
      column: "globalIdLineage",
      editorsOnly: true,
    },
  }) satisfies Record<string, WireField<{ ids: GlobalIds }>>;

/**
 * `json_ld` (§4.9): the post's schema.org document, sent on single GETs only. A post password
 * protection blanks has none (§4.7), and is described nowhere else either (`described`).
 * @param doc the `/doc` description prefix (`event`, `venue`).
 * @param read how it is read (built on single GETs, `ctx.single`; else undefined).
 */
export const jsonLdField = <S extends v.GenericSchema, R>(
  schema: S,
  doc: string,
  read: (r: R) => unknown,
) => ({
  json_ld: {
    out: v.optional(ref(schema, `${doc}.json_ld`)),
    read,
    blank: LEFT_OUT as typeof LEFT_OUT,
    hides: NOTHING_HIDDEN,
  },
});

/**
 * Whether a post as shown is described in schema.org terms (§4.9): not when password protection
 * left out its `json_ld` (§4.7); an event's JSON-LD and the iCalendar feed then leave it out too.
 */
export const described = (post: Shown): boolean => !post.blanked.has("json_ld");

/** The writable global ids (the lineage), in TEC's argument order. */
export const LINEAGE_ARGS = ["global_id_lineage"] as const;

/** The global ids of a post as sent: its own, and its lineage after it (§4.1). */
export function globalIds(
  ctx: RenderContext,
  row: { id: number; globalIdLineage: string[] },
): GlobalIds {
  const id = globalId(ctx, row.id);
  return { global_id: id, global_id_lineage: [id, ...row.globalIdLineage] };
}

/**
 * `show_map` and `show_map_link` of events and venues: stored as is, `null` when password
 * protection blanks them (§4.7).
 */
export const mapFlagFields = (doc: string, args: string) => {
  const flagField = (field: "show_map" | "show_map_link", column: "showMap" | "showMapLink") =>
    ({
      out: flag(`${doc}.${field}`),
      arg: arg({ schema: wpBoolean, type: "boolean", description: `${args}.${field}` }),
      column,
      blank: null,
    }) satisfies WireField;
  return {
    show_map: flagField("show_map", "showMap"),
    show_map_link: flagField("show_map_link", "showMapLink"),
  };
};

/** The names of `mapFlagFields`, in TEC's argument order. */
export const MAP_FLAG_ARGS = ["show_map", "show_map_link"] as const;

/**
 * A text field of the address or contact (§2.6, §2.7 `is_string_or_empty`): any string, stored as
 * TEC's `tec_sanitize_string` leaves it (tags removed, `&`, `<`, `>` encoded: src/text/plain.ts),
 * blanked by password protection.
 */
export const textField = (kind: LinkedKind, field: string, column: string) =>
  ({
    out: opt(`${kind}.${field}`),
    arg: arg({ schema: stringOrEmpty, type: "string", description: `${kind}s.${field}` }),
    column,
    write: (x: string) => sanitizeString(x),
    blank: "",
  }) satisfies WireField;

/** A website (§2.6, §2.7 `is_url_or_empty`, made safe: src/linked-posts/fields.ts `websiteOrEmpty`), stored as given. */
export const urlField = (kind: LinkedKind, field: string, column: string) =>
  ({
    out: opt(`${kind}.${field}`),
    arg: arg({ schema: websiteOrEmpty, type: "string", description: `${kind}s.${field}` }),
    column,
    blank: "",
  }) satisfies WireField;
