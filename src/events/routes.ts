/**
 * Event routes of the namespace (tec-reference §1.2 rows 2–4), in registration order.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";
import { allow } from "../http/allow";
import { listEvents } from "./list";
import { getEvent, getEventBySlug } from "./single";

export function eventRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.use("/events", allow({ GET: () => true, POST: (u) => u.can("edit_posts") }));
  r.use("/events/*", allow({ GET: () => true, DELETE: (u) => u.can("delete_posts"), POST: (u) => u.can("edit_posts"), PUT: (u) => u.can("edit_posts"), PATCH: (u) => u.can("edit_posts") }));
  r.get("/events", listEvents);
  r.get("/events/:id{[0-9]+}", getEvent);
  r.get("/events/by-slug/:slug{[^/]+}", getEventBySlug);
  return r;
}
