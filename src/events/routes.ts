/**
 * Event routes of the namespace (tec-reference §1.2 rows 2–4), in registration order: archive
 * GET/POST; single GET, DELETE, then POST/PUT/PATCH; the same by slug.
 */
import { Hono } from "hono";
import { allow } from "../http/allow";
import type { AppEnv } from "../http/context";
import { deleteEvent } from "./delete";
import { listEvents } from "./list";
import { saveEvent } from "./save";
import { getEvent, getEventBySlug } from "./single";

const SINGLE_METHODS = {
  GET: () => true,
  DELETE: (u: { can: (c: "delete_posts") => boolean }) => u.can("delete_posts"),
  POST: (u: { can: (c: "edit_posts") => boolean }) => u.can("edit_posts"),
  PUT: (u: { can: (c: "edit_posts") => boolean }) => u.can("edit_posts"),
  PATCH: (u: { can: (c: "edit_posts") => boolean }) => u.can("edit_posts"),
};

const idOf = (raw: string) => Number(raw);
const slugOf = (raw: string) => raw.toLowerCase();

export function eventRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>({ strict: false });
  // "/events/*" also matches "/events"; the archive's own list is set last and wins there.
  r.use("/events/*", allow(SINGLE_METHODS));
  r.use("/events", allow({ GET: () => true, POST: (u) => u.can("edit_posts") }));
  r.get("/events", listEvents);
  r.post("/events", (c) => saveEvent(c, { create: true }));
  r.get("/events/:id{[0-9]+}", getEvent);
  r.delete("/events/:id{[0-9]+}", (c) => deleteEvent(c, { id: idOf(c.req.param("id")) }));
  r.on(["POST", "PUT", "PATCH"], "/events/:id{[0-9]+}", (c) => saveEvent(c, { id: idOf(c.req.param("id")) }));
  r.get("/events/by-slug/:slug{[^/]+}", getEventBySlug);
  r.delete("/events/by-slug/:slug{[^/]+}", (c) => deleteEvent(c, { slug: slugOf(c.req.param("slug")) }));
  r.on(["POST", "PUT", "PATCH"], "/events/by-slug/:slug{[^/]+}", (c) => saveEvent(c, { slug: slugOf(c.req.param("slug")) }));
  return r;
}
