/**
 * Event routes of the namespace (tec-reference §1.2 rows 2–4), in registration order: archive
 * GET/POST; single GET, DELETE, then POST/PUT/PATCH; a series' instances (contract §7.8); the same
 * by slug. Each handler is declared with
 * the argument specs it validates with, who may use it (`Allow`) and its `/doc` answers.
 */
import type { AppContext } from "../http/context";
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { INSTANCES_ARGS, LIST_ARGS, SINGLE_ARGS, SLUG_ARGS } from "./args";
import { deleteEvent } from "./delete";
import { listEvents, listInstances } from "./list-page";
import { saveEvent } from "./save";
import { PREVIEW_ARGS, previewRecurrence } from "./series/preview";
import { getEvent, getEventBySlug } from "./single";
import { CREATE_ARGS, DELETE_ARGS, EDIT_ARGS, EDIT_BY_SLUG_ARGS } from "./write-args";

const edits: Permit = (u) => u.can("edit_posts");
const deletes: Permit = (u) => u.can("delete_posts");

const idOf = (c: AppContext) => Number(c.req.param("id"));
const slugOf = (c: AppContext) => (c.req.param("slug") ?? "").toLowerCase();

/** `/events`, `/events/{id}`, `/events/{id}/instances`, `/events/by-slug/{slug}`. */
export function eventRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/events",
      endpoints: [
        {
          methods: ["GET"],
          args: LIST_ARGS,
          may: anyone,
          handler: listEvents,
          doc: { op: "events.list", ok: 200, body: "EventArchive", errors: [400, 404] },
        },
        {
          methods: ["POST"],
          args: CREATE_ARGS,
          may: edits,
          handler: (c) => saveEvent(c, { create: true }),
          doc: { op: "events.create", ok: 201, body: "Event", errors: [400, 401, 403] },
        },
      ],
    },
    {
      path: "/events/{id}",
      endpoints: [
        {
          methods: ["GET"],
          args: SINGLE_ARGS,
          may: anyone,
          handler: getEvent,
          doc: { op: "events.read", ok: 200, body: "Event", errors: [400, 403, 404] },
        },
        {
          methods: ["DELETE"],
          args: { ...SINGLE_ARGS, ...DELETE_ARGS },
          may: deletes,
          handler: (c) => deleteEvent(c, { id: idOf(c) }),
          doc: {
            op: "events.delete",
            ok: 200,
            body: ["Event", "DeletedEvent"],
            errors: [400, 401, 403, 404, 410],
          },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: EDIT_ARGS,
          may: edits,
          handler: (c) => saveEvent(c, { id: idOf(c) }),
          doc: { op: "events.update", ok: 200, body: "Event", errors: [400, 401, 403, 404] },
        },
      ],
    },
    {
      // The events of one recurring series in a window (contract §7.8).
      path: "/events/{id}/instances",
      endpoints: [
        {
          methods: ["GET"],
          args: INSTANCES_ARGS,
          may: anyone,
          handler: listInstances,
          doc: { op: "events.instances", ok: 200, body: "EventArchive", errors: [400, 403, 404] },
        },
      ],
    },
    {
      // The occurrences unsaved lines would give (contract §7.8): needs what a create needs.
      path: "/recurrence",
      endpoints: [
        {
          methods: ["GET"],
          args: PREVIEW_ARGS,
          may: edits,
          handler: previewRecurrence,
          doc: {
            op: "events.recurrence",
            ok: 200,
            body: "RecurrencePreview",
            errors: [400, 401, 403],
          },
        },
      ],
    },
    {
      path: "/events/by-slug/{slug}",
      endpoints: [
        {
          methods: ["GET"],
          args: SLUG_ARGS,
          may: anyone,
          handler: getEventBySlug,
          doc: { op: "events.read", ok: 200, body: "Event", errors: [400, 403] },
        },
        {
          methods: ["DELETE"],
          args: { ...SLUG_ARGS, ...DELETE_ARGS },
          may: deletes,
          handler: (c) => deleteEvent(c, { slug: slugOf(c) }),
          doc: {
            op: "events.delete",
            ok: 200,
            body: ["Event", "DeletedEvent"],
            errors: [400, 401, 403, 410],
          },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: EDIT_BY_SLUG_ARGS,
          may: edits,
          handler: (c) => saveEvent(c, { slug: slugOf(c) }),
          doc: { op: "events.update", ok: 200, body: "Event", errors: [400, 401, 403] },
        },
      ],
    },
  ];
}
