/**
 * The wire types, by the names a calendar uses: derived from the service's `/doc`
 * (`generated/openapi.ts`, written by `codegen/generate.ts`), never written by hand.
 */
import type { components, paths } from "./generated/openapi.js";

type Schemas = components["schemas"];

/** An event as `GET /events` and `GET /events/{id}` answer it. */
export type Event = Schemas["Event"];
/** A venue (`GET /venues`). */
export type Venue = Schemas["Venue"];
/** An organizer (`GET /organizers`). */
export type Organizer = Schemas["Organizer"];
/** A category (`tribe_events_cat`) or tag (`post_tag`) as `/categories` and `/tags` list it. */
export type Term = Schemas["Term"];
/** One entry of `GET /deleted`: `{id, type, status, deleted_utc}`. */
export type Deletion = Schemas["DeletionArchive"]["deleted"][number];
/** The WordPress error envelope `{code, message, data: {status, params?}}`. */
export type ErrorEnvelope = Schemas["Error"];

/** The lists a calendar is made of, by their route. */
export type Kind = "events" | "venues" | "organizers" | "categories" | "tags";

/** Every list kind, in the order a sync asks for them. */
export const KINDS: readonly Kind[] = ["events", "venues", "organizers", "categories", "tags"];

/** The item type of each list kind. */
export interface EntityOf {
  events: Event;
  venues: Venue;
  organizers: Organizer;
  categories: Term;
  tags: Term;
}

/** The `type` of a `/deleted` entry (and of webhook deliveries) for each list kind. */
export const DELETION_TYPE: Record<Kind, Deletion["type"]> = {
  events: "event",
  venues: "venue",
  organizers: "organizer",
  categories: "category",
  tags: "tag",
};

/** The query parameters `/doc` documents for `GET /{route}` (page, per_page, filters…). */
export type ListQuery<R extends Kind | "deleted"> = NonNullable<
  paths[`/${R}`]["get"]["parameters"]["query"]
>;

/** A query as sent: documented parameters, plus anything else passed through as it is. */
export type Query = Record<string, string | number | boolean | undefined>;
