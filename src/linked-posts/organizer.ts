/**
 * The organizer's contract (tec-reference §4.3, §2.7, §8.6; contract §4 rows 12, 16, 18): every wire
 * field once — what is sent and how it is read, the argument that writes it, its column, what
 * password protection shows instead — and what is derived from it: `ORGANIZER_ARGS`
 * (`POST /organizers`, organizer objects inside events), the `/doc` component `Organizer`, and the
 * organizer object itself (`serializeOrganizer`, typed by that component).
 */
import type * as v from "valibot";
import { argSpecs, readMapping, type WireField, wireSchema } from "../http/contract";
import { OrganizerJsonLd } from "../http/json-ld-schemas";
import type { Shown } from "../http/password-protection";
import type { RenderContext } from "../http/render";
import { organizerJsonLd } from "./json-ld";
import {
  globalIdFields,
  jsonLdField,
  type LinkedPost,
  type LinkedView,
  linkedView,
  postArgs,
  postFields,
  textField,
  urlField,
} from "./post-fields";
import type { OrganizerRow } from "./record";

/** What the organizer's fields read. */
type OrganizerView = LinkedView<OrganizerRow>;

/** The organizer's wire fields, in the order they are sent (§4.3). */
export const ORGANIZER_FIELDS = {
  ...postFields("organizer"),
  phone: textField("organizer", "phone", "phone"),
  website: urlField("organizer", "website", "website"),
  email: textField("organizer", "email", "email"),
  ...jsonLdField(OrganizerJsonLd, "organizer", (r: OrganizerView) =>
    r.ctx.single ? organizerJsonLd(r.row, r.image) : undefined,
  ),
  ...globalIdFields("organizer", "organizers"),
} satisfies Record<string, WireField<OrganizerView, LinkedPost>>;

/** `POST /organizers` arguments (§2.7, TEC's order), `organizer` required. */
export const ORGANIZER_ARGS = argSpecs(ORGANIZER_FIELDS, [
  ...postArgs("organizer"),
  "phone",
  "website",
  "email",
  "image",
]);

/**
 * The columns `search` looks in (tec-reference §7.1), which are also those of the FTS5 table
 * `organizers_fts` (drizzle/0002_linked_posts_search.sql).
 */
export const ORGANIZER_SEARCH_COLUMNS = [
  "title",
  "content",
  "excerpt",
  "phone",
  "email",
  "website",
] as const;

/** §4.3. */
export const Organizer = wireSchema(ORGANIZER_FIELDS);

/** The organizer object as sent. */
export type OrganizerObject = v.InferOutput<typeof Organizer>;

/**
 * The organizer object (§4.3) as the viewer may see it (src/linked-posts/access.ts): TEC's key
 * order, empty values dropped (quirk 17) but the id and the global ids; blanked fields as their
 * contract's `blank`. `json_ld` only when `ctx.single`.
 */
export function serializeOrganizer(
  ctx: RenderContext,
  organizer: LinkedPost<OrganizerRow> & Shown,
): OrganizerObject {
  return readOrganizer(linkedView(ctx, organizer)) as OrganizerObject;
}

const readOrganizer = readMapping(ORGANIZER_FIELDS, (r: OrganizerView) => r.row, {
  dropEmpty: true,
  blanked: (r) => r.blanked,
});
