/**
 * The iCalendar feed route (contract §7): `GET /events.ics`, relative to the namespace root, with the
 * arguments of `GET /events`. Registered before the event routes (`/events.ics` never matches
 * `/events/{id}` anyway).
 */
import { ARCHIVE_ARGS } from "../events/args";
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { icalFeed } from "./feed";

/**
 * @example GET /wp-json/tribe/events/v1/events.ics?start_date=2026-01-01&categories=music
 */
export function icalRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/events.ics",
      endpoints: [
        {
          methods: ["GET"],
          args: ARCHIVE_ARGS,
          may: anyone,
          handler: icalFeed,
          doc: { op: "events.ics", ok: 200, errors: [400] },
        },
      ],
    },
  ];
}
