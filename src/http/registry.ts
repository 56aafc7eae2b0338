/**
 * The route registry (tec-reference §1.2, §11): every route module declares its routes once — path,
 * and per handler its methods, the argument specs the handler validates with, who may use it (the
 * `Allow` header, §12.2) and what `/doc` says about its answers. The Hono registration, the namespace
 * index, `OPTIONS` and `/doc` are all derived from that one table, in registration order.
 *
 * Paths are templates relative to the namespace root: `""` (the root itself), `/events`,
 * `/events/{id}`, `/events/by-slug/{slug}`. Each `{name}` is a path variable whose pattern is fixed
 * by `PATH_VARIABLES`, so the Hono path, the WordPress route regex and the OpenAPI path agree.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { Settings } from "../settings";
import type { AllowSubject } from "./allow";
import type { ArgSpecs } from "./args";
import type { AppContext, AppEnv } from "./context";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * The components of `/doc` by name, as the app declares them (src/root/schemas.ts merges its
 * `COMPONENTS` into this interface): routes can name only components that exist, and the registry
 * need not know the resources' schemas.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging (src/root/schemas.ts)
export interface DocComponents {}

/** The name of a `/doc` component: `Event`, `EventArchive`… */
export type ComponentName = keyof DocComponents;

/**
 * What `/doc` says about an endpoint's answers. Descriptions are strings keys
 * `doc.responses.{op}.{status}` (401 for all: `doc.responses.unauthorized`); errors carry the
 * WordPress envelope (§10.1).
 */
export interface EndpointDoc {
  /** e.g. `events.read`. */
  op: string;
  /** The success status. */
  ok: number;
  /** Component(s) of the success body (several: `oneOf`); none for an undocumented body. */
  body?: ComponentName | ComponentName[];
  /** Error statuses the endpoint answers. */
  errors: number[];
}

/** A permission check of the namespace routes (`Allow`, §12.2). */
export type Permit = (u: AllowSubject) => boolean;

/** Everyone, anonymous included. */
export const anyone: Permit = () => true;

/** One handler of a route. */
export interface Endpoint<P> {
  methods: Method[];
  /** The specs the handler validates with (merged when it validates with several). */
  args: ArgSpecs;
  handler: (c: AppContext) => Response | Promise<Response>;
  /** Whether a user may use these methods (the `Allow` header). */
  may: P;
  /** Omitted for routes outside `/doc` (wp/v2, the namespace index). */
  doc?: EndpointDoc;
}

export interface RouteDef<P> {
  /** Template relative to the group root: `""`, `/events`, `/events/{id}`. */
  path: string;
  endpoints: Array<Endpoint<P>>;
}

/** A set of routes under one WordPress namespace (`tribe/events/v1`, `wp/v2`). */
export interface RouteGroup<P> {
  /** The namespace for the settings in force, e.g. `tribe/events/v1`. */
  namespace: (settings: Settings) => string;
  /** Builds the `Allow` middleware from method → permission, in registration order. */
  allow: (methods: Record<string, P>) => MiddlewareHandler<AppEnv>;
  routes: Array<RouteDef<P>>;
}

/** Path variables: the Hono pattern and the WordPress route regex (§1.2). */
export const PATH_VARIABLES: Record<string, { hono: string; wp: string }> = {
  id: { hono: "[0-9]+", wp: "\\d+" },
  slug: { hono: "[^/]+", wp: "[^/]+" },
  uuid: { hono: "[^/]+", wp: "[\\w\\-]+" },
  // `wp/v2/types/{type}`, `wp/v2/taxonomies/{taxonomy}` (WordPress: `[\w-]+`).
  type: { hono: "[\\w-]+", wp: "[\\w-]+" },
  taxonomy: { hono: "[\\w-]+", wp: "[\\w-]+" },
};

const VARIABLE = /\{([a-z_]+)\}/g;

function variable(name: string) {
  const known = PATH_VARIABLES[name];
  if (!known) throw new Error(`unknown path variable {${name}}`);
  return known;
}

/** Names of the path variables of a template: `/events/{id}` → `["id"]`. */
export const pathVariables = (path: string) => [...path.matchAll(VARIABLE)].map((m) => m[1]);

/** Hono path of a template: `/events/{id}` → `/events/:id{[0-9]+}`; `""` → `/`. */
export const honoPath = (path: string) =>
  path.replace(VARIABLE, (_, name: string) => `:${name}{${variable(name).hono}}`) || "/";

/**
 * WordPress route regex of a template, as the namespace index keys it (§11.1).
 * @example wpRoute("tribe/events/v1", "/events/{id}") // "/tribe/events/v1/events/(?P<id>\\d+)"
 */
export const wpRoute = (namespace: string, path: string) =>
  `/${namespace}${path.replace(VARIABLE, (_, name: string) => `(?P<${name}>${variable(name).wp})`)}`;

/** Methods of a route, its handlers' in registration order (§1.2: order matters for `Allow`). */
export const routeMethods = <P>(route: RouteDef<P>): Method[] =>
  route.endpoints.flatMap((e) => e.methods);

/**
 * The Hono sub-app of a group: per route its `Allow` middleware, its handlers, and `OPTIONS`
 * answered with the route's description (§1.2 notes; CORS preflights never get here, src/app.ts).
 * @param describe renders one route's entry (src/root/namespace-index.ts).
 * @example app.route("/wp-json/tribe/events/v1", mountGroup(namespaceGroup(settings), routeOptions))
 */
export function mountGroup<P>(
  group: RouteGroup<P>,
  describe: (c: AppContext, group: RouteGroup<P>, route: RouteDef<P>) => Promise<unknown>,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: false });
  for (const route of group.routes) {
    const path = honoPath(route.path);
    const permissions: Record<string, P> = {};
    for (const e of route.endpoints) for (const m of e.methods) permissions[m] = e.may;
    app.use(path, group.allow(permissions));
    for (const e of route.endpoints) app.on(e.methods, path, e.handler);
    app.options(path, async (c) => c.json(await describe(c, group, route)));
  }
  return app;
}
