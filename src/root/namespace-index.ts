/**
 * The namespace indexes (`GET /wp-json/tribe/events/v1`, `GET /wp-json/wp/v2`) and the route
 * descriptions `OPTIONS` answers (tec-reference §11.1, §1.2 notes), rendered from the route registry
 * in the request's language; the REST index `GET /wp-json/` (src/root/rest-index.ts) lists the same
 * entries for every namespace.
 */
import type { Arg, ArgContext, ArgSpecs } from "../http/args";
import { type AppContext, argContext } from "../http/context";
import {
  pathVariables,
  type RouteDef,
  type RouteGroup,
  routeMethods,
  wpRoute,
} from "../http/registry";
import { withLinks } from "../http/wp-collection";
import { loadStrings, type Strings, text } from "../i18n";

/**
 * An argument as WordPress shows it: only the schema keywords TEC declares (`default` as computed
 * for this request, `description`, `type`, `format`, `items`), then `required`. Swagger-only args
 * show no `type` (§11.1: `start_date`); an empty description key shows none (the index's own args).
 */
function describeArg(arg: Arg, ctx: ArgContext, strings: Strings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (arg.default !== undefined)
    out.default = typeof arg.default === "function" ? arg.default(ctx) : arg.default;
  if (arg.description) out.description = text(strings, `args.${arg.description}`);
  if (arg.type) out.type = arg.type;
  if (arg.format) out.format = arg.format;
  if (arg.items) out.items = arg.items;
  out.required = arg.required === true;
  return out;
}

/**
 * The arguments of an endpoint that apply on this route: path arguments of other routes (an edit
 * spec's `id` reused under `/users/me`) are left out. WordPress prints an empty list as `[]`.
 */
export function routeArgs(route: RouteDef<unknown>, args: ArgSpecs): Array<[string, Arg]> {
  const variables = pathVariables(route.path);
  return Object.entries(args).filter(
    ([name, arg]) => arg.in !== "path" || variables.includes(name),
  );
}

/** What the indexes read of a route group: its namespace and its routes (whatever its permissions). */
export interface DescribedGroup {
  namespace: RouteGroup<unknown>["namespace"];
  routes: Array<RouteDef<unknown>>;
}

/** WordPress's `_links` of an index answer: relation → links. */
export const links = (byRelation: Record<string, Array<{ href: string }>>) =>
  withLinks({}, byRelation);

/**
 * One route's entry: `namespace`, `methods`, `endpoints` (`methods`, `args`), and `_links.self` for
 * routes without path variables.
 * @example describeRoute(c, group, { path: "/doc", endpoints }, strings)
 *   // { namespace: "tribe/events/v1", methods: ["GET"], endpoints: [{ methods: ["GET"], args: [] }], _links: { self: [{ href: "…/wp-json/tribe/events/v1/doc" }] } }
 */
export function describeRoute(
  c: AppContext,
  group: Pick<DescribedGroup, "namespace">,
  route: RouteDef<unknown>,
  strings: Strings,
) {
  const namespace = group.namespace(c.get("settings"));
  const ctx = argContext(c);
  const endpoints = route.endpoints.map((e) => {
    const args = routeArgs(route, e.args);
    return {
      methods: e.methods,
      args: args.length
        ? Object.fromEntries(args.map(([name, arg]) => [name, describeArg(arg, ctx, strings)]))
        : [],
    };
  });
  return {
    namespace,
    methods: routeMethods(route),
    endpoints,
    ...(pathVariables(route.path).length
      ? {}
      : links({ self: [{ href: `${c.get("urls").apiRoot}${namespace}${route.path}` }] })),
  };
}

/** `OPTIONS` on a route: its entry, in the request's language. */
export async function routeOptions<P>(c: AppContext, group: RouteGroup<P>, route: RouteDef<P>) {
  return describeRoute(c, group, route, await loadStrings(c.env.STRINGS, c.get("lang")));
}

/**
 * The `routes` object of an index: every route of the groups, in order, keyed by its WordPress
 * route regex (§11.1), with its entry.
 */
export function routeEntries(
  c: AppContext,
  groups: DescribedGroup[],
  strings: Strings,
): Record<string, ReturnType<typeof describeRoute>> {
  const settings = c.get("settings");
  return Object.fromEntries(
    groups.flatMap((group) =>
      group.routes.map((route) => [
        wpRoute(group.namespace(settings), route.path),
        describeRoute(c, group, route, strings),
      ]),
    ),
  );
}

/**
 * A namespace index (§11.1, WordPress `get_namespace_index`): `namespace`, `routes` keyed by
 * WordPress route regex in registration order, `_links.up` → the API root.
 * @param groups the groups of one namespace (wp/v2 has two: users and media check permissions
 *   their own way), in registration order.
 * @example c.json(await namespaceIndex(c, [group])) // { namespace: "tribe/events/v1", routes: { "/tribe/events/v1": … }, _links: … }
 */
export async function namespaceIndex(c: AppContext, groups: DescribedGroup[]) {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  return {
    namespace: groups[0].namespace(c.get("settings")),
    routes: routeEntries(c, groups, strings),
    ...links({ up: [{ href: c.get("urls").apiRoot }] }),
  };
}
