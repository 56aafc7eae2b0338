/** `wp/v2/media` routes (contract §3). */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";

export function mediaRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
