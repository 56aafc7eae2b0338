/**
 * The payloads, as valibot schemas: the `components.schemas` of `/doc` (tec-reference §11.2,
 * contract §4 row 20). Written from the serializers (src/events/serialize.ts,
 * src/linked-posts/serialize.ts, src/terms/serialize.ts, src/media/serialize.ts) and the password
 * blanking of §4.7 (src/http/password-protection.ts), and checked against real responses by
 * test/root/doc.happy.test.ts and test/root/doc-conformance.test.ts (every route, every object closed):
 * strings where strings are sent (`author`, date details, cost values),
 * objects where objects are sent, `venue` an object or `[]`, venue and organizer keys optional where
 * empty values are dropped (§4.2, §4.3), flags nullable where blanking nulls them. Objects are
 * strict, so a key added to a serializer without a line here fails that test.
 *
 * The schema.org documents (`json_ld`) are in src/http/json-ld-schemas.ts, the `wp/v2` payloads
 * (media, users, application passwords) in src/root/wp-schemas.ts. Descriptions are strings keys under
 * `doc.schemas.` (rendered per language by src/root/openapi.ts).
 */
import * as v from "valibot";
import { SYNC_TYPES } from "../db/schema";
import { CostDetails, Event, Series } from "../events/contract";
import { RecurrencePreview } from "../events/series/preview";
import {
  EventJsonLd,
  JsonLdOffer,
  JsonLdPerson,
  JsonLdPlace,
  JsonLdPostalAddress,
  JsonLdSchedule,
  OrganizerJsonLd,
  VenueJsonLd,
} from "../http/json-ld-schemas";
import { archive } from "../http/pagination";
import { DateDetails } from "../http/part-schemas";
import { d, deleted, emptyList, Image, int, str } from "../http/schema-kit";
import { Organizer } from "../linked-posts/organizer";
import { Venue } from "../linked-posts/venue";
import { DELETION_STATUSES } from "../sync/deleted";
import { EventTerm, Term } from "../terms/contract";
import { WEBHOOK_COMPONENTS } from "./webhook-schemas";
import { ApplicationPassword, Media, NewApplicationPassword, User } from "./wp-schemas";

/** One entry of `data.details` of `rest_invalid_param` (§10.2). */
const ErrorDetail = v.strictObject({
  code: str("error.code"),
  message: str("error.message"),
  data: v.strictObject({ status: int("error.status") }),
});

/** `GET /deleted`: one thing a reader can no longer see (contract §7.3). */
const Deletion = v.strictObject({
  id: int("deletion.id"),
  type: d(v.picklist(SYNC_TYPES), "deletion.type"),
  status: d(v.picklist(DELETION_STATUSES), "deletion.status"),
  deleted_utc: str("deletion.deleted_utc"),
  sync_cursor: int("deletion.sync_cursor"),
  series: v.optional(
    d(
      v.strictObject({ id: int("series.id"), occurrence_start: str("series.occurrence_start") }),
      "deletion.series",
    ),
  ),
});

/** The WordPress error envelope (§10.1); `data` carries `params`, `details` and the like per code. */
const ErrorBody = v.strictObject({
  code: str("error.code"),
  message: str("error.message"),
  data: d(
    v.strictObject({
      status: int("error.status"),
      params: v.optional(
        d(v.union([v.record(v.string(), v.string()), v.array(v.string())]), "error.params"),
      ),
      details: v.optional(
        d(v.union([v.record(v.string(), ErrorDetail), emptyList]), "error.details"),
      ),
      json_error_code: v.optional(int("error.json_error_code")),
      json_error_message: v.optional(str("error.json_error_message")),
      retry_after: v.optional(int("error.retry_after")),
      term_id: v.optional(int("error.term_id")),
    }),
    "error.data",
  ),
});

/** Every component of `/doc`, by name (the names `$ref`s and route declarations use). */
export const COMPONENTS = {
  Event,
  Venue,
  Organizer,
  Term,
  EventTerm,
  Image,
  DateDetails,
  CostDetails,
  Series,
  RecurrencePreview,
  EventArchive: archive("events", Event),
  VenueArchive: archive("venues", Venue),
  OrganizerArchive: archive("organizers", Organizer),
  CategoryArchive: archive("categories", Term),
  TagArchive: archive("tags", Term),
  DeletedEvent: deleted(Event, "event"),
  DeletedVenue: deleted(Venue, "venue"),
  DeletedOrganizer: deleted(Organizer, "organizer"),
  ...WEBHOOK_COMPONENTS,
  DeletionArchive: v.strictObject({
    ...archive("deleted", Deletion).entries,
    sync_cursor: int("archive.sync_cursor"),
  }),
  EventJsonLd,
  VenueJsonLd,
  OrganizerJsonLd,
  JsonLdPlace,
  JsonLdPerson,
  JsonLdPostalAddress,
  JsonLdOffer,
  JsonLdSchedule,
  Media,
  User,
  DeletedUser: deleted(User, "user"),
  ApplicationPassword,
  NewApplicationPassword,
  DeletedApplicationPassword: deleted(ApplicationPassword, "application_password"),
  Error: ErrorBody,
};

type Components = typeof COMPONENTS;

// Their names are the `ComponentName`s routes may give as the body of an answer
// (src/http/registry.ts `EndpointDoc`).
declare module "../http/registry" {
  interface DocComponents extends Components {}
}
