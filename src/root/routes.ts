/**
 * The index routes, all rendered from the route registry in the request's language:
 *
 * - a namespace's own routes (tec-reference §1.2 rows 0–1): its WordPress namespace index `GET /`
 *   (§11.1) and, for `tribe/events/v1`, `GET /doc` (§11.2) and the interactive reference page
 *   `GET /reference` that renders `/doc` for people (contract §7);
 * - the WordPress REST index `GET /wp-json/` (contract §7.4), which lists every route of every namespace.
 */
import * as v from "valibot";
import { allow } from "../http/allow";
import { type ArgSpecs, parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { anyone, type Permit, type RouteDef, type RouteGroup } from "../http/registry";
import { loadStrings } from "../i18n";
import { type DescribedGroup, namespaceIndex } from "./namespace-index";
import { openApiDocument } from "./openapi";
import { referencePage } from "./reference/page";
import { restIndex } from "./rest-index";

const anything = v.pipe(v.unknown(), v.transform(String));

/** WordPress's index arguments: no description, no type, no check (§11.1). */
const indexArgs = (namespace: string) =>
  ({
    namespace: { schema: anything, default: namespace, description: "" },
    context: { schema: anything, default: "view", description: "" },
  }) satisfies ArgSpecs;

/**
 * The namespace index route (`""`, first in registration order, as WordPress adds it).
 * @param groups the groups of the namespace, read per request (they may be filled after this call).
 * @param namespace its name for the settings in force (`tribe/events/v1`), the `namespace` default.
 */
export function namespaceIndexRoute(
  groups: () => DescribedGroup[],
  namespace: string,
): RouteDef<Permit> {
  const args = indexArgs(namespace);
  return {
    path: "",
    endpoints: [
      {
        methods: ["GET"],
        args,
        may: anyone,
        handler: async (c: AppContext) => {
          parseArgs(args, await requestParams(c), argContext(c));
          return c.json(await namespaceIndex(c, groups()));
        },
      },
    ],
  };
}

/**
 * `/`, `/doc` and `/reference` of `tribe/events/v1`, first in registration order. `/reference` is
 * HTML for people, so `/doc` does not list it (like the index).
 * @param group the namespace they describe; read per request, so it may be filled after this call.
 * @param namespace its name for the settings in force (`tribe/events/v1`), the index's `namespace` default.
 */
export function rootRoutes(group: RouteGroup<Permit>, namespace: string): Array<RouteDef<Permit>> {
  return [
    namespaceIndexRoute(() => [group], namespace),
    {
      path: "/doc",
      endpoints: [
        {
          methods: ["GET"],
          args: {},
          may: anyone,
          handler: async (c: AppContext) =>
            c.json(openApiDocument(c, group, await loadStrings(c.env.STRINGS, c.get("lang")))),
          doc: { op: "doc", ok: 200, errors: [] },
        },
      ],
    },
    {
      path: "/reference",
      endpoints: [
        {
          methods: ["GET"],
          args: {},
          may: anyone,
          handler: (c: AppContext) => referencePage(c, namespace),
        },
      ],
    },
  ];
}

/** The REST index's argument (WordPress registers `/` with `context` only). */
const REST_INDEX_ARGS = {
  context: { schema: anything, default: "view", description: "" },
} satisfies ArgSpecs;

/**
 * The group of the WordPress REST index: one route, `/` (namespace `""`), listed first in its own
 * `routes`, as WordPress does.
 * @param namespaces every other group, in registration order, read per request.
 * @example app.route("/wp-json", mountGroup(restIndexGroup(() => groups), routeOptions))
 */
export function restIndexGroup(namespaces: () => DescribedGroup[]): RouteGroup<Permit> {
  const group: RouteGroup<Permit> = {
    namespace: () => "",
    allow,
    routes: [],
  };
  group.routes.push({
    path: "",
    endpoints: [
      {
        methods: ["GET"],
        args: REST_INDEX_ARGS,
        may: anyone,
        handler: async (c: AppContext) => {
          parseArgs(REST_INDEX_ARGS, await requestParams(c), argContext(c));
          return c.json(await restIndex(c, [group, ...namespaces()]));
        },
      },
    ],
  });
  return group;
}
