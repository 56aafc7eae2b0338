/**
 * The `wp/v2` payloads (contract §3) as `/doc` components: media, users and application passwords.
 * Their routes are WordPress's and have no paths in `/doc`; the components name what they send
 * (src/media/serialize.ts, src/users/serialize.ts).
 */
import * as v from "valibot";
import { d, int, str } from "./schema-kit";

const size = (key: string) => v.optional(int(`media.${key}`));

/** An attachment as `wp/v2/media` answers. */
export const Media = v.strictObject({
  id: int("media.id"),
  date: str("media.date"),
  date_gmt: str("media.date_gmt"),
  slug: str("media.slug"),
  status: str("media.status"),
  type: d(v.literal("attachment"), "media.type"),
  title: d(v.strictObject({ rendered: str("media.title_rendered") }), "media.title"),
  author: int("media.author"),
  alt_text: str("media.alt_text"),
  media_type: d(v.literal("image"), "media.media_type"),
  mime_type: str("media.mime_type"),
  source_url: str("media.source_url"),
  media_details: d(
    v.strictObject({ width: size("width"), height: size("height"), filesize: size("filesize") }),
    "media.media_details",
  ),
});

/** A user as `wp/v2/users` answers. */
export const User = v.strictObject({
  id: int("user.id"),
  username: str("user.username"),
  name: str("user.name"),
  email: str("user.email"),
  roles: d(v.array(v.string()), "user.roles"),
  slug: str("user.slug"),
});

const applicationPassword = {
  uuid: str("application_password.uuid"),
  app_id: str("application_password.app_id"),
  name: str("application_password.name"),
  created: str("application_password.created"),
  last_used: d(v.null(), "application_password.last_used"),
  last_ip: d(v.null(), "application_password.last_ip"),
};

/** An application password (never its secret). */
export const ApplicationPassword = v.strictObject(applicationPassword);

/** The answer to its creation: the one time the password itself is sent. */
export const NewApplicationPassword = v.strictObject({
  ...applicationPassword,
  password: str("application_password.password"),
});
