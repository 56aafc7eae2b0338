/**
 * The namespace's own routes (tec-reference §1.2 rows 0–1): the WordPress namespace index `GET /`
 * (§11.1) and `GET /doc` (§11.2), both rendered from the route registry in the request's language,
 * and the interactive reference page `GET /reference` that renders `/doc` for people (contract §7).
 */
import * as v from "valibot";
import { type ArgSpecs, parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { loadStrings } from "../i18n";
import { namespaceIndex } from "./namespace-index";
import { openApiDocument } from "./openapi";
import { referencePage } from "./reference/page";
import { anyone, type Permit, type RouteDef, type RouteGroup } from "./registry";

const anything = v.pipe(v.unknown(), v.transform(String));

/** WordPress's index arguments: no description, no type, no check (§11.1). */
const indexArgs = (namespace: string) =>
  ({
    namespace: { schema: anything, default: namespace, description: "" },
    context: { schema: anything, default: "view", description: "" },
  }) satisfies ArgSpecs;

/**
 * `/`, `/doc` and `/reference`, first in registration order. `/reference` is HTML for people, so
 * `/doc` does not list it (like the index).
 * @param group the namespace they describe; read per request, so it may be filled after this call.
 * @param namespace its name for the settings in force (`tribe/events/v1`), the index's `namespace` default.
 */
export function rootRoutes(group: RouteGroup<Permit>, namespace: string): Array<RouteDef<Permit>> {
  const args = indexArgs(namespace);
  return [
    {
      path: "",
      endpoints: [
        {
          methods: ["GET"],
          args,
          may: anyone,
          handler: async (c: AppContext) => {
            parseArgs(args, await requestParams(c), argContext(c));
            return c.json(await namespaceIndex(c, group));
          },
        },
      ],
    },
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
