/** Category and tag routes (tec-reference §1.2 rows 11–14). */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";

/** `/categories`, `/categories/{id}`. */
export function categoryRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>({ strict: false });
}

/** `/tags`, `/tags/{id}`. */
export function tagRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>({ strict: false });
}
