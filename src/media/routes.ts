/** `wp/v2/media` routes (contract §3), relative to `/wp-json/wp/v2/media`. */
import { Hono } from "hono";
import { allow } from "../http/allow";
import type { AppEnv } from "../http/context";
import { createMedia } from "./create";
import { getMedia } from "./single";

/** `POST /media` and `GET /media/{id}`, each path preceded by its `Allow` middleware. */
export function mediaRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>({ strict: false });
  r.use("/", allow({ POST: (u) => u.can("upload_files") }));
  r.post("/", createMedia);
  r.use("/:id{[0-9]+}", allow({ GET: () => true }));
  r.get("/:id{[0-9]+}", getMedia);
  return r;
}
