/**
 * Venue and organizer routes (tec-reference §1.2 rows 5–10), one implementation for both kinds, in
 * registration order: archive GET/POST; single GET, DELETE, then POST/PUT/PATCH; the same by slug.
 * Each handler is declared with the argument specs it validates with, who may use it (`Allow`) and
 * its `/doc` answers.
 */
import { anyone, type Permit, type RouteDef } from "../http/registry";
import {
  ARCHIVE_ARGS,
  DELETE_ARGS,
  EDIT_ARGS,
  EDIT_BY_SLUG_ARGS,
  SINGLE_ARGS,
  SLUG_ARGS,
} from "./args";
import { deleteLinked } from "./delete";
import { LINKED } from "./kinds";
import { listLinked } from "./list";
import type { LinkedKind } from "./record";
import { saveLinked } from "./save";
import { getLinked } from "./single";

const edits: Permit = (u) => u.can("edit_posts");
const deletes: Permit = (u) => u.can("delete_posts");

/** `/doc` component names per kind. */
const COMPONENT = {
  venue: { one: "Venue", archive: "VenueArchive", deleted: "DeletedVenue" },
  organizer: { one: "Organizer", archive: "OrganizerArchive", deleted: "DeletedOrganizer" },
} as const;

function linkedRoutes(kind: LinkedKind): Array<RouteDef<Permit>> {
  const { plural } = LINKED[kind];
  const base = `/${plural}`;
  const names = COMPONENT[kind];
  const op = (name: string) => `${plural}.${name}`;
  return [
    {
      path: base,
      endpoints: [
        {
          methods: ["GET"],
          args: ARCHIVE_ARGS[kind],
          may: anyone,
          handler: (c) => listLinked(c, kind),
          doc: { op: op("list"), ok: 200, body: names.archive, errors: [400, 404] },
        },
        {
          methods: ["POST"],
          args: LINKED[kind].args,
          may: edits,
          handler: (c) => saveLinked(c, kind, { create: true }),
          doc: { op: op("create"), ok: 201, body: names.one, errors: [400, 401, 403] },
        },
      ],
    },
    {
      path: `${base}/{id}`,
      endpoints: [
        {
          methods: ["GET"],
          args: SINGLE_ARGS[kind],
          may: anyone,
          handler: (c) => getLinked(c, kind, "id"),
          doc: { op: op("read"), ok: 200, body: names.one, errors: [400, 403] },
        },
        {
          methods: ["DELETE"],
          args: { ...SINGLE_ARGS[kind], ...DELETE_ARGS[kind] },
          may: deletes,
          handler: (c) => deleteLinked(c, kind, "id"),
          doc: {
            op: op("delete"),
            ok: 200,
            body: [names.one, names.deleted],
            errors: [400, 401, 403, 410],
          },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: EDIT_ARGS[kind],
          may: edits,
          handler: (c) => saveLinked(c, kind, { id: Number(c.req.param("id")) }),
          doc: { op: op("update"), ok: 200, body: names.one, errors: [400, 401, 403] },
        },
      ],
    },
    {
      path: `${base}/by-slug/{slug}`,
      endpoints: [
        {
          methods: ["GET"],
          args: SLUG_ARGS[kind],
          may: anyone,
          handler: (c) => getLinked(c, kind, "slug"),
          doc: { op: op("read"), ok: 200, body: names.one, errors: [400, 403] },
        },
        {
          methods: ["DELETE"],
          args: { ...SLUG_ARGS[kind], ...DELETE_ARGS[kind] },
          may: deletes,
          handler: (c) => deleteLinked(c, kind, "slug"),
          doc: {
            op: op("delete"),
            ok: 200,
            body: [names.one, names.deleted],
            errors: [400, 401, 403, 410],
          },
        },
        {
          methods: ["POST", "PUT", "PATCH"],
          args: EDIT_BY_SLUG_ARGS[kind],
          may: edits,
          handler: (c) => saveLinked(c, kind, { slug: (c.req.param("slug") ?? "").toLowerCase() }),
          doc: { op: op("update"), ok: 200, body: names.one, errors: [400, 401, 403] },
        },
      ],
    },
  ];
}

/** `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}`. */
export function venueRoutes(): Array<RouteDef<Permit>> {
  return linkedRoutes("venue");
}

/** `/organizers`, `/organizers/{id}`, `/organizers/by-slug/{slug}`. */
export function organizerRoutes(): Array<RouteDef<Permit>> {
  return linkedRoutes("organizer");
}
