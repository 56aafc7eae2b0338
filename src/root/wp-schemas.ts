/**
 * The `wp/v2` payloads (contract §3) as `/doc` components: media, users and application passwords.
 * Their routes are WordPress's and have no paths in `/doc`; the components come from their
 * contracts (src/media/serialize.ts, src/users/serialize.ts).
 */
export { Media } from "../media/serialize";
export { ApplicationPassword, NewApplicationPassword, User } from "../users/serialize";
