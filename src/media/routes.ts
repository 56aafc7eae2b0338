/** `wp/v2/media` routes (contract §3), relative to `/wp-json/wp/v2`, in WordPress's order. */
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { MEDIA_CREATE_ARGS, MEDIA_SINGLE_ARGS } from "./args";
import { createMedia } from "./create";
import { listMedia, MEDIA_LIST_ARGS } from "./list";
import { getMedia } from "./single";

/** `GET /media` (anyone), `POST /media` (author and up) and `GET /media/{id}`. */
export function mediaRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/media",
      endpoints: [
        { methods: ["GET"], args: MEDIA_LIST_ARGS, may: anyone, handler: listMedia },
        {
          methods: ["POST"],
          args: MEDIA_CREATE_ARGS,
          may: (u) => u.can("upload_files"),
          handler: createMedia,
        },
      ],
    },
    {
      path: "/media/{id}",
      endpoints: [{ methods: ["GET"], args: MEDIA_SINGLE_ARGS, may: anyone, handler: getMedia }],
    },
  ];
}
