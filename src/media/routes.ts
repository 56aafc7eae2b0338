/** `wp/v2/media` routes (contract §3), relative to `/wp-json/wp/v2`. */
import { anyone, type Permit, type RouteDef } from "../http/registry";
import { MEDIA_CREATE_ARGS, MEDIA_SINGLE_ARGS } from "./args";
import { createMedia } from "./create";
import { getMedia } from "./single";

/** `POST /media` (author and up) and `GET /media/{id}`. */
export function mediaRoutes(): Array<RouteDef<Permit>> {
  return [
    {
      path: "/media",
      endpoints: [
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
