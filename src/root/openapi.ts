/**
 * `GET /doc` (tec-reference §11.2; contract §4 row 20): an OpenAPI 3.0 document of the namespace,
 * generated from the route registry — parameters and request bodies from the argument specs the
 * handlers validate with, answers from the payload schemas (src/root/schemas.ts) — in the request's
 * language. `servers[0].url` is this language's namespace root (contract §1). Credentials (contract
 * §3) are security schemes: required where an anonymous user may not use the operation, optional
 * elsewhere (signed-in users may see more), so the reference page's "Authorize" sends them.
 */
import { toJsonSchemaDefs } from "@valibot/to-json-schema";
import type * as v from "valibot";
import type { Arg, ArgContext } from "../http/args";
import { type AppContext, argContext } from "../http/context";
import {
  type Endpoint,
  type EndpointDoc,
  type Method,
  type Permit,
  pathVariables,
  type RouteDef,
  type RouteGroup,
} from "../http/registry";
import { MAX_LIST } from "../http/validators";
import { type Strings, text } from "../i18n";
import { routeArgs } from "./namespace-index";
import { COMPONENTS } from "./schemas";

type Json = Record<string, unknown>;

const COMPONENT_REF = "#/components/schemas/";
/** Media types a write accepts (contract §5). */
const BODY_TYPES = ["application/json", "application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The application password (contract §3) as OpenAPI security schemes: with the user name (HTTP
 * Basic, what WordPress clients send) or alone (Bearer). Descriptions are strings keys.
 */
const SECURITY_SCHEMES = {
  applicationPassword: { type: "http", scheme: "basic", description: "doc.security.basic" },
  applicationPasswordBearer: { type: "http", scheme: "bearer", description: "doc.security.bearer" },
};
/**
 * WordPress's global parameters (contract §7.7, src/http/global-params.ts), declared once under
 * `components.parameters`: `_fields` and `_embed` on every read, `_envelope` on every operation.
 */
const GLOBAL_PARAMETERS = {
  _fields: { schema: { type: "array", items: { type: "string" } }, style: "form", explode: false },
  _embed: { schema: { type: "string" }, allowEmptyValue: true },
  _envelope: { schema: { type: "string" }, allowEmptyValue: true },
} as const;
const PARAMETER_REF = "#/components/parameters/";

/** The global parameters, described in the request's language. */
const globalParameters = (strings: Strings) =>
  Object.fromEntries(
    Object.entries(GLOBAL_PARAMETERS).map(([name, p]) => [
      name,
      { name, in: "query", description: text(strings, `doc.parameters.${name}`), ...p },
    ]),
  );

/** Either scheme; `{}` first when anonymous use is allowed too. */
const SIGNED_IN = Object.keys(SECURITY_SCHEMES).map((name) => ({ [name]: [] }));
const ANONYMOUS = { loggedIn: false, can: () => false };

let templates: Json | null = null;

/**
 * OpenAPI 3.0 wants `required` to list at least one property: an empty list (an object whose
 * properties are all optional) is left out, everywhere in `node`.
 */
function withoutEmptyRequired<T>(node: T): T {
  if (Array.isArray(node)) return node.map(withoutEmptyRequired) as T;
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === "required" && Array.isArray(value) && value.length === 0))
      .map(([key, value]) => [key, withoutEmptyRequired(value)]),
  ) as T;
}

/**
 * The component schemas with description keys, converted once per isolate. Literals carry their
 * type (`{type: "boolean", enum: [false]}`), as OpenAPI 3.0 has no `const`.
 */
function componentTemplates(): Json {
  templates ??= withoutEmptyRequired(
    toJsonSchemaDefs(COMPONENTS, {
      target: "openapi-3.0",
      overrideRef: ({ referenceId }) => `${COMPONENT_REF}${referenceId}`,
      overrideSchema: ({ valibotSchema, jsonSchema }) => {
        if (valibotSchema.type !== "literal") return undefined;
        const literal = (valibotSchema as v.LiteralSchema<boolean | number | string, undefined>)
          .literal;
        return {
          type:
            typeof literal === "boolean"
              ? "boolean"
              : typeof literal === "number"
                ? "number"
                : "string",
          ...jsonSchema,
        };
      },
    }) as Json,
  );
  return templates;
}

/**
 * A copy of `node` with every `description` (a strings key) replaced by its text.
 * @example localize({ type: "integer", description: "doc.schemas.event.id" }, strings) // {…, description: "The event WordPress post ID"}
 */
export function localize<T>(node: T, strings: Strings): T {
  if (Array.isArray(node)) return node.map((item) => localize(item, strings)) as T;
  if (node === null || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === "description" && typeof value === "string"
        ? text(strings, value)
        : localize(value, strings),
    ]),
  ) as T;
}

const localized = new WeakMap<Strings, Json>();

function components(strings: Strings): Json {
  let schemas = localized.get(strings);
  if (!schemas) {
    schemas = localize(componentTemplates(), strings);
    localized.set(strings, schemas);
  }
  return schemas;
}

/** The JSON schema of an argument (type as declared, `swaggerType` else, `string` by default). */
function argSchema(arg: Arg, ctx: ArgContext): Json {
  const type = arg.type ?? arg.swaggerType ?? "string";
  const schema: Json = { type };
  if (type === "array") {
    schema.items = arg.items ?? { type: "string" };
    schema.maxItems = arg.maxItems ?? MAX_LIST;
  }
  if (arg.format && arg.format !== type) schema.format = arg.format;
  if (arg.default !== undefined && arg.default !== null)
    schema.default = typeof arg.default === "function" ? arg.default(ctx) : arg.default;
  return schema;
}

function parameter(
  name: string,
  arg: Arg,
  where: "path" | "query",
  ctx: ArgContext,
  strings: Strings,
): Json {
  const schema = argSchema(arg, ctx);
  return {
    name,
    in: where,
    description: text(strings, `args.${arg.description}`),
    required: where === "path" || arg.required === true,
    schema,
    // Lists are sent as comma lists (or PHP brackets), tec-reference §2.1.
    ...(schema.type === "array" ? { style: "form", explode: false } : {}),
  };
}

/** The path arguments of a route: declared by whichever of its handlers takes them (by-slug edits do not). */
function pathArgs<P>(route: RouteDef<P>): Array<[string, Arg]> {
  return pathVariables(route.path).map((name) => {
    const arg = route.endpoints.map((e) => e.args[name]).find((a) => a?.in === "path");
    if (!arg) throw new Error(`route ${route.path}: no handler declares the path argument ${name}`);
    return [name, arg];
  });
}

/** Responses of an operation: the success with its body schema, then the errors with the envelope. */
function responses(doc: EndpointDoc, strings: Strings): Json {
  const out: Json = {};
  const bodies = doc.body === undefined ? [] : [doc.body].flat();
  const schema =
    bodies.length === 1
      ? { $ref: COMPONENT_REF + bodies[0] }
      : { oneOf: bodies.map((b) => ({ $ref: COMPONENT_REF + b })) };
  out[doc.ok] = {
    description: text(strings, `doc.responses.${doc.op}.${doc.ok}`),
    ...(bodies.length ? { content: { "application/json": { schema } } } : {}),
  };
  for (const status of doc.errors) {
    out[status] = {
      description: text(
        strings,
        status === 401 ? "doc.responses.unauthorized" : `doc.responses.${doc.op}.${status}`,
      ),
      content: { "application/json": { schema: { $ref: `${COMPONENT_REF}Error` } } },
    };
  }
  return out;
}

function operation(
  route: RouteDef<Permit>,
  e: Endpoint<Permit>,
  method: Method,
  ctx: ArgContext,
  strings: Strings,
): Json {
  const inBody = method === "POST" || method === "PUT" || method === "PATCH";
  const others = routeArgs(route, e.args).filter(([, arg]) => arg.in !== "path");
  const parameters = pathArgs(route).map(([name, arg]) =>
    parameter(name, arg, "path", ctx, strings),
  );
  if (!inBody)
    parameters.push(...others.map(([name, arg]) => parameter(name, arg, "query", ctx, strings)));
  const globals = method === "GET" ? ["_fields", "_embed", "_envelope"] : ["_envelope"];
  parameters.push(...globals.map((name) => ({ $ref: PARAMETER_REF + name })));
  // Grouped by resource, with a summary, for the reference page and code generators.
  const op: Json = {
    tags: [e.doc!.op.split(".")[0]],
    summary: text(strings, `doc.summaries.${e.doc!.op}`),
    parameters,
  };
  if (inBody && others.length) {
    const required = others.filter(([, arg]) => arg.required).map(([name]) => name);
    const schema = {
      type: "object",
      properties: Object.fromEntries(
        others.map(([name, arg]) => [
          name,
          { description: text(strings, `args.${arg.description}`), ...argSchema(arg, ctx) },
        ]),
      ),
      ...(required.length ? { required } : {}),
    };
    op.requestBody = {
      required: required.length > 0,
      content: Object.fromEntries(BODY_TYPES.map((type) => [type, { schema }])),
    };
  }
  op.security = e.may(ANONYMOUS) ? [{}, ...SIGNED_IN] : SIGNED_IN;
  op.responses = responses(e.doc!, strings);
  return op;
}

/**
 * The document: `openapi`, `info`, `components`, `servers`, `paths` (§11.2 order). Paths are every
 * route of the group that has documented handlers (the namespace index itself is WordPress's, not
 * TEC's, and is not listed), one operation per method. Defaults are computed for this request, as
 * in the index.
 * @example c.json(openApiDocument(c, group, await loadStrings(c.env.STRINGS, c.get("lang"))))
 */
export function openApiDocument(c: AppContext, group: RouteGroup<Permit>, strings: Strings): Json {
  const ctx = argContext(c);
  const paths: Json = {};
  for (const route of group.routes) {
    const ops: Json = {};
    for (const e of route.endpoints) {
      if (e.doc)
        for (const method of e.methods)
          ops[method.toLowerCase()] = operation(route, e, method, ctx, strings);
    }
    if (Object.keys(ops).length) paths[route.path] = ops;
  }
  const tags = [
    ...new Set(
      Object.values(paths).flatMap((ops) =>
        Object.values(ops as Record<string, { tags: string[] }>).flatMap((op) => op.tags),
      ),
    ),
  ].map((name) => ({ name, description: text(strings, `doc.tags.${name}`) }));
  return {
    openapi: "3.0.0",
    info: {
      version: "1.0.0",
      title: text(strings, "doc.info.title"),
      description: text(strings, "doc.info.description"),
    },
    components: {
      schemas: components(strings),
      parameters: globalParameters(strings),
      securitySchemes: localize(SECURITY_SCHEMES, strings),
    },
    servers: [{ url: c.get("urls").namespaceRoot }],
    tags,
    paths,
  };
}
