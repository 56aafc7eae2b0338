/**
 * `GET /venues/{id}`, `/venues/by-slug/{slug}` and the organizer equivalents (tec-reference §2.6,
 * §2.7, §4.2, §4.3, §4.7, §4.9): one D1 batch loads the post and its image; `json_ld` is added.
 */
import { parseArgs } from "../http/args";
import { type AppContext, argContext, requestParams } from "../http/context";
import { InvalidParamsError } from "../http/errors";
import type { RenderContext } from "../http/render";
import { assertLinkedReadable, passwordAccess, visibleLinked } from "./access";
import { SINGLE_ARGS, SLUG_ARGS } from "./args";
import { type LinkedKey, type LinkedRecord, loadLinked } from "./load";
import type { LinkedKind } from "./record";
import { serializeLinked } from "./serialize";

/** Largest id SQLite and JavaScript agree on; larger ids cannot exist. */
const MAX_ID = Number.MAX_SAFE_INTEGER;

/**
 * Reads the path key of a single route and loads the post.
 * @throws InvalidParamsError `id` / `slug` when no post of the kind has it (§3 `is_venue_id`,
 *   `is_venue_slug`, …: 400 before anything else, even for anonymous clients).
 */
export async function loadTarget(
  c: AppContext,
  kind: LinkedKind,
  by: "id" | "slug",
): Promise<{ record: LinkedRecord; key: LinkedKey; password: string | undefined }> {
  const params = await requestParams(c);
  const ctx = argContext(c);
  let key: LinkedKey;
  let password: string | undefined;
  if (by === "id") {
    const { values } = parseArgs(SINGLE_ARGS[kind], params, ctx);
    key = { id: values.id };
    password = values.password;
  } else {
    const { values } = parseArgs(SLUG_ARGS[kind], params, ctx);
    key = { slug: values.slug.toLowerCase() };
    password = values.password;
  }
  const record =
    "id" in key && key.id > MAX_ID ? null : await loadLinked(c.get("rdb").db, kind, key);
  if (!record) throw new InvalidParamsError([{ name: by }]);
  return { record, key, password };
}

/** Handles the single GET routes of one kind, by id or by slug. */
export async function getLinked(
  c: AppContext,
  kind: LinkedKind,
  by: "id" | "slug",
): Promise<Response> {
  const { record, password } = await loadTarget(c, kind, by);
  const user = c.get("user");
  assertLinkedReadable(kind, record.row, user);
  const ctx: RenderContext = {
    urls: c.get("urls"),
    settings: c.get("settings"),
    user,
    single: true,
  };
  const access = await passwordAccess(password, (await requestParams(c)).query.context, user);
  return c.json(serializeLinked(kind, ctx, visibleLinked(ctx, kind, record, access(record.row))));
}
