/**
 * Arguments of the `wp/v2/media` routes (contract §3): the path id, and the create arguments of
 * the media contract (src/media/serialize.ts).
 */
import { arg } from "../http/args";
import { idFormat } from "../http/validators";
import { MEDIA_CREATE_ARGS } from "./serialize";

/** `GET /media/{id}` (the route admits digits only). */
export const MEDIA_SINGLE_ARGS = {
  id: arg({ schema: idFormat, type: "integer", in: "path", description: "media.id" }),
};

/** `POST /media` (JSON or form): a reference to an image hosted elsewhere, not an upload. */
export { MEDIA_CREATE_ARGS };
