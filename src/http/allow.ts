/**
 * The `Allow` header (tec-reference §12.2): the methods of the matched route whose permission check
 * passes for this user, errors included (anonymous on `/events/5` → `GET`).
 */
import type { MiddlewareHandler } from "hono";
import { type Capability, can } from "../access/capabilities";
import type { AppEnv } from "./context";

/** What a permission predicate sees. */
export interface AllowSubject {
  loggedIn: boolean;
  can(cap: Capability): boolean;
}

/** Middleware recording the route's allowed methods for this user. */
export function allow(
  methods: Record<string, (u: AllowSubject) => boolean>,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = c.get("user");
    const subject: AllowSubject = { loggedIn: user !== null, can: (cap) => can(user, cap) };
    c.set(
      "allow",
      Object.entries(methods)
        .filter(([, ok]) => ok(subject))
        .map(([m]) => m),
    );
    await next();
  };
}
