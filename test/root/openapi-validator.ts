/**
 * Validates real responses against the `/doc` document with @cfworker/json-schema (made for Workers:
 * no code generation, so it runs in workerd where ajv's compiled validators cannot).
 */
import { Validator } from "@cfworker/json-schema";

type Json = any;

/** OpenAPI 3.0 schema → JSON Schema 2019-09: `nullable: true` becomes `anyOf [schema, null]`. */
export function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const { nullable, description, ...rest } = node;
  const out: Json = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [k, k === "enum" ? v : toJsonSchema(v)]),
  );
  if (nullable === true)
    return {
      anyOf: [out, { type: "null" }],
      ...(description !== undefined ? { description } : {}),
    };
  return description !== undefined ? { ...out, description } : out;
}

/** The schema of an operation's JSON answer for `status`. */
export function responseSchema(doc: Json, path: string, method: string, status: number): Json {
  const response = doc.paths[path]?.[method]?.responses?.[status];
  if (!response)
    throw new Error(`/doc does not document ${status} for ${method.toUpperCase()} ${path}`);
  const schema = response.content?.["application/json"]?.schema;
  if (!schema)
    throw new Error(`/doc documents no JSON body for ${status} of ${method.toUpperCase()} ${path}`);
  return schema;
}

/**
 * Checks `body` against what `/doc` says `method path` answers with `status`.
 * @returns the validation errors, `[]` when the body conforms.
 */
export function validateResponse(
  doc: Json,
  path: string,
  method: string,
  status: number,
  body: unknown,
): string[] {
  const root = {
    ...toJsonSchema(responseSchema(doc, path, method, status)),
    components: { schemas: toJsonSchema(doc.components.schemas) },
  };
  const result = new Validator(root, "2019-09", false).validate(body);
  return result.valid
    ? []
    : result.errors.map((e) => `${e.instanceLocation} ${e.keyword}: ${e.error}`);
}
