/**
 * Routes for clients that mirror the calendar (contract §7): the deletion log `GET /deleted`. The
 * lists' `modified_after` gives what changed; this gives what went.
 */
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { DELETED_ARGS } from "./args";
import { listDeleted } from "./deleted";

/**
 * @example GET /wp-json/tribe/events/v1/deleted?modified_after=2026-11-01T00:00:00Z
 */
export function syncRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/deleted",
      endpoints: [
        {
          methods: ["GET"],
          args: DELETED_ARGS,
          may: anyone,
          handler: listDeleted,
          doc: { op: "deleted.list", ok: 200, body: "DeletionArchive", errors: [400] },
        },
      ],
    },
  ];
}
