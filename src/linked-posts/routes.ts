/** Venue and organizer routes (tec-reference §1.2 rows 5–10). */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** `/venues`, `/venues/{id}`, `/venues/by-slug/{slug}`. */
export function venueRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>({ strict: false });
}

/** `/organizers`, `/organizers/{id}`, `/organizers/by-slug/{slug}`. */
export function organizerRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>({ strict: false });
}
