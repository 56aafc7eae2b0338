/**
 * Building blocks of the payload schemas of `/doc` (src/root/schemas.ts): valibot schemas whose
 * descriptions are strings keys under `doc.schemas.`, rendered per language by src/root/openapi.ts.
 */
import * as v from "valibot";

/** `schema` with the description `doc.schemas.{key}`. */
export const d = <S extends v.GenericSchema>(schema: S, key: string) =>
  v.pipe(schema, v.description<v.InferOutput<S>, string>(`doc.schemas.${key}`));
/** A string. */
export const str = (key: string) => d(v.string(), key);
/** An integer. */
export const int = (key: string) => d(v.pipe(v.number(), v.integer()), key);
/** A string of exactly `n` digits. */
export const digits = (key: string, n: number) =>
  d(v.pipe(v.string(), v.regex(new RegExp(`^\\d{${n}}$`))), key);
/** A string that may be left out (empty values dropped). */
export const opt = (key: string) => v.optional(str(key));
/** A flag; `null` on password-protected posts the client may not see (§4.7). */
export const flag = (key: string) => d(v.nullable(v.boolean()), key);
/** An empty JSON array (PHP's empty array). */
export const emptyList = v.pipe(v.array(v.unknown()), v.maxLength(0));
/** A component referenced with a description of its own (OpenAPI 3.0 ignores siblings of `$ref`). */
export const ref = <S extends v.GenericSchema>(schema: S, key: string) =>
  d(v.intersect([schema]), key);

/** `DELETE …?force=true` (contract §4): the post is gone; `previous` is what it was. */
export const deleted = <S extends v.GenericSchema>(item: S, key: string) =>
  v.strictObject({
    deleted: d(v.literal(true), "deleted.deleted"),
    previous: ref(item, `deleted.${key}`),
  });

/** §4.5: falsy entries dropped. */
export const Image = v.strictObject({
  url: str("image.url"),
  id: int("image.id"),
  extension: opt("image.extension"),
  width: v.optional(int("image.width")),
  height: v.optional(int("image.height")),
  filesize: v.optional(int("image.filesize")),
});

/** `image` of a post: the object, or `false`. */
export const image = (key: string) => d(v.union([Image, v.literal(false)]), key);
