/**
 * Venues and organizers, the two "linked post" types (tec-reference §4.2, §4.3): computed in TEC's key
 * order, falsy values dropped (quirk 17, kept: clients rely on it), then the always-present keys.
 */
import type { organizers, venues } from "../db/schema";
import { dropFalsy, globalId, type RenderContext } from "../http/render";
import { imageObject, type MediaRow } from "../media/serialize";
import { autop } from "../text/html";
import { organizerJsonLd, venueJsonLd } from "./json-ld";

export type VenueRow = typeof venues.$inferSelect;
export type OrganizerRow = typeof organizers.$inferSelect;
type PostRow = VenueRow | OrganizerRow;

function common(ctx: RenderContext, row: PostRow, kind: "venue" | "organizer") {
  return {
    id: row.id,
    author: row.author === null ? "0" : String(row.author),
    status: row.status,
    date: row.postDate,
    date_utc: row.postDateGmt,
    modified: row.postModified,
    modified_utc: row.postModifiedGmt,
    url: `${ctx.urls.site}/${kind}/${row.slug}/`,
  };
}

function ids(ctx: RenderContext, row: PostRow) {
  const id = globalId(ctx, row.id);
  return { global_id: id, global_id_lineage: [id, ...row.globalIdLineage] };
}

/** The venue object (§4.2). `json_ld` only when `ctx.single`. */
export function serializeVenue(ctx: RenderContext, row: VenueRow, image?: MediaRow | null) {
  const body = dropFalsy({
    ...common(ctx, row, "venue"),
    venue: row.title,
    description: autop(row.content),
    excerpt: autop(row.excerpt),
    slug: row.slug,
    image: imageObject(image),
    address: row.address,
    city: row.city,
    country: row.country,
    province: row.province,
    state: row.state,
    zip: row.zip,
    phone: row.phone,
    website: row.website,
    stateprovince: row.stateprovince,
    ...(row.geoLat && row.geoLng ? { geo_lat: row.geoLat, geo_lng: row.geoLng } : {}),
    ...(ctx.single ? { json_ld: venueJsonLd(row, image) } : {}),
  });
  return { ...body, show_map: row.showMap, show_map_link: row.showMapLink, ...ids(ctx, row) };
}

/** The organizer object (§4.3). `json_ld` only when `ctx.single`. */
export function serializeOrganizer(ctx: RenderContext, row: OrganizerRow, image?: MediaRow | null) {
  const body = dropFalsy({
    ...common(ctx, row, "organizer"),
    organizer: row.title,
    description: autop(row.content),
    excerpt: autop(row.excerpt),
    slug: row.slug,
    image: imageObject(image),
    phone: row.phone,
    website: row.website,
    email: row.email,
    ...(ctx.single ? { json_ld: organizerJsonLd(row, image) } : {}),
  });
  return { ...body, ...ids(ctx, row) };
}

/** The object of either kind (§4.2 or §4.3). */
export function serializeLinked(
  kind: "venue" | "organizer",
  ctx: RenderContext,
  row: PostRow,
  image?: MediaRow | null,
): Record<string, unknown> {
  return kind === "venue"
    ? serializeVenue(ctx, row as VenueRow, image)
    : serializeOrganizer(ctx, row as OrganizerRow, image);
}
