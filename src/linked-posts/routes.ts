/**
 * Venue and organizer routes (tec-reference §1.2 rows 5–10), one implementation for both kinds, in
 * registration order: archive GET/POST; single GET, DELETE, then POST/PUT/PATCH; the same by slug.
 */
import { Hono } from "hono";
import { type AllowSubject, allow } from "../http/allow";
import type { AppEnv } from "../http/context";
import { deleteLinked } from "./delete";
import { LINKED, type LinkedKind } from "./kinds";
import { listLinked } from "./list";
import { saveLinked } from "./save";
import { getLinked } from "./single";

const edits = (u: AllowSubject) => u.can("edit_posts");

/** Methods of the single routes, for the `Allow` header (§12.2). */
const SINGLE_METHODS = {
  GET: () => true,
  DELETE: (u: AllowSubject) => u.can("delete_posts"),
  POST: edits,
  PUT: edits,
  PATCH: edits,
};

function linkedRoutes(kind: LinkedKind): Hono<AppEnv> {
  const base = `/${LINKED[kind].plural}`;
  const r = new Hono<AppEnv>({ strict: false });
  // `${base}/*` also matches the bare archive path; the archive's own list is set last and wins there.
  r.use(`${base}/*`, allow(SINGLE_METHODS));
  r.use(base, allow({ GET: () => true, POST: edits }));
  r.get(base, (c) => listLinked(c, kind));
  r.post(base, (c) => saveLinked(c, kind, { create: true }));
  r.get(`${base}/:id{[0-9]+}`, (c) => getLinked(c, kind, "id"));
  r.delete(`${base}/:id{[0-9]+}`, (c) => deleteLinked(c, kind, "id"));
  r.on(["POST", "PUT", "PATCH"], `${base}/:id{[0-9]+}`, (c) => saveLinked(c, kind, { id: Number(c.req.param("id")) }));
  r.get(`${base}/by-slug/:slug{[^/]+}`, (c) => getLinked(c, kind, "slug"));
  r.delete(`${base}/by-slug/:slug{[^/]+}`, (c) => deleteLinked(c, kind, "slug"));
  r.on(["POST", "PUT", "PATCH"], `${base}/by-slug/:slug{[^/]+}`, (c) => saveLinked(c, kind, { slug: c.req.param("slug").toLowerCase() }));
  return r;
}

/** `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}`. */
export function venueRoutes(): Hono<AppEnv> {
  return linkedRoutes("venue");
}

/** `/organizers`, `/organizers/{id}`, `/organizers/by-slug/{slug}`. */
export function organizerRoutes(): Hono<AppEnv> {
  return linkedRoutes("organizer");
}
