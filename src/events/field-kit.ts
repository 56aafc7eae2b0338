/**
 * Building blocks of the event's contract (src/events/contract.ts, src/events/date-fields.ts): what
 * its fields read, and the builders of its kinds of field. `/doc` descriptions are
 * `doc.schemas.event.{field}`, argument descriptions `args.events.write.{field}` (tec-reference
 * §4.1, §2.3).
 */
import type * as v from "valibot";
import { arg } from "../http/args";
import type { WireField } from "../http/contract";
import { DateDetails } from "../http/part-schemas";
import type { RenderContext } from "../http/render";
import { ref, str } from "../http/schema-kit";
import type { OrganizerObject } from "../linked-posts/organizer";
import type { GlobalIds } from "../linked-posts/post-fields";
import type { VenueObject } from "../linked-posts/venue";
import type { TermRow } from "../terms/serialize";
import { dateDetails } from "../time/format";
import type { EventRow, VisibleEvent } from "./record";

/** What the fields read: the record as the viewer may see it, and what the serializer works out once per event. */
export interface EventView {
  ctx: RenderContext;
  record: VisibleEvent;
  row: EventRow;
  ids: GlobalIds;
  /** The public link (`{site}/event/{slug}/`; an occurrence's: `…/{Y-m-d}/`, src/events/record.ts `rowUrl`). */
  url: string;
  /** The event's page (`{site}/event/{slug}/`: a series' for each of its occurrences). */
  page: string;
  /** The formatted cost (§4.8). */
  cost: string;
  /** The event's terms by name. */
  terms: TermRow[];
  venue: VenueObject | [];
  organizers: OrganizerObject[];
  /** The schema.org document (single GETs only). */
  jsonLd?: unknown;
}

/** One wire field of the event (`hides` empties a copy of the event as the viewer sees it). */
export type EventField = WireField<EventView, VisibleEvent>;

/**
 * A string the event always sends, read from the view.
 * @example text("timezone_abbr", (r) => r.row.timezoneAbbr) // { out: str("event.timezone_abbr"), read }
 */
export const text = (key: string, read: (r: EventView) => unknown) =>
  ({ out: str(`event.${key}`), read }) satisfies EventField;

/** A `*_details` object (§4.1: year, month, day, hour, minutes, seconds) of a `Y-m-d H:i:s` date. */
export const details = (key: string, read: (r: EventView) => string) =>
  ({
    out: ref(DateDetails, `event.${key}`),
    read: (r: EventView) => dateDetails(read(r)),
  }) satisfies EventField;

/** The write argument of a field (`type: "string"`, its description `events.write.{key}`). */
export const writable = <T>(key: string, schema: v.GenericSchema<unknown, T>) =>
  ({
    arg: arg({ schema, type: "string", description: `events.write.${key}` }),
  }) satisfies EventField;
