/** `wp/v2/users` routes (contract §3). */
import { Hono } from "hono";
import type { AppEnv } from "../http/context";

export function userRoutes(): Hono<AppEnv> {
  return new Hono<AppEnv>();
}
