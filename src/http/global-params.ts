/**
 * WordPress's global REST parameters (contract §7.7), applied after the answer is built, on every
 * route and language, as WordPress's REST server applies them to TEC's routes:
 *
 * - `_fields` (`rest_filter_response_fields`): keep only the named fields of a successful JSON
 *   answer — a comma list or an array, top-level names and dot paths (`events.id`), unknown names
 *   ignored. A dot path into a list applies to each of its items (`events.title` keeps each event's
 *   title), where WordPress would empty the list: the one deliberate difference.
 * - `_embed` (`WP_REST_Server::embed_links`): for each `_links` relation whose links are
 *   `embeddable` (all: `_embed`, `_embed=1`, `_embed=true`; or those named: `_embed=up`), the
 *   answer of a GET of each link in the `embed` context, as the same user, under `_embedded` (an
 *   answer, or the error it gave); on the answer, or on each item of a list answer. Harmless where
 *   nothing is embeddable.
 * - `_envelope` (`WP_REST_Server::envelope_response`): `{body, status, headers}` with HTTP 200,
 *   `headers` being those the route set (paging, `Link`, `Location`, `Allow`), errors included,
 *   named as WordPress sends them (`X-WP-TotalPages`, not the `x-wp-totalpages` of `Headers`).
 *
 * None of them changes what a route does; they reshape its answer. The read cache keys answers by
 * the parsed query, so each field set, embed and envelope has its own key and entity tag.
 */
import type { AppContext } from "./context";
import { requestQuery } from "./context";
import { headerName } from "./headers";
import type { ParamBag } from "./params";

/** What a request asks of its answer's shape; null when it names none of the parameters. */
interface Reshape {
  /** `_fields`, as a tree of names (`true`: the whole field). */
  fields?: FieldTree;
  /** `_embed`: every embeddable relation (`true`) or these. */
  embed?: true | Set<string>;
  envelope: boolean;
}

type FieldTree = { [name: string]: FieldTree | true };

/** WordPress `wp_parse_list`: a list from an array or a comma/space separated string. */
function parseList(value: unknown): string[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === "string"
      ? value.split(/[\s,]+/)
      : [];
  return items.map((item) => String(item).trim()).filter((item) => item !== "");
}

/** The `_fields` tree (`events.id,total` → `{events: {id: true}, total: true}`), as WordPress builds it. */
function fieldTree(fields: string[]): FieldTree {
  const tree: FieldTree = {};
  for (const field of fields) {
    const parts = field.split(".");
    let at = tree;
    let skipped = false;
    while (parts.length > 1) {
      const next = parts.shift() as string;
      // A parent already kept whole keeps its children.
      if (at[next] === true) {
        skipped = true;
        break;
      }
      at[next] ??= {};
      at = at[next] as FieldTree;
    }
    if (!skipped) at[parts[0]] = true;
  }
  return tree;
}

/** The reshaping a query asks for, or null. */
function reshapeOf(query: ParamBag): Reshape | null {
  const has = (name: string) => Object.hasOwn(query, name);
  if (!has("_fields") && !has("_embed") && !has("_envelope")) return null;
  const fields = parseList(query._fields);
  // `rest_parse_embed_param`: `_embed`, `_embed=1`, `_embed=true` (what wpapi sends) embed all.
  const everything = ["true", "1"].includes(String(query._embed));
  const embed = everything ? [] : parseList(query._embed);
  return {
    fields: fields.length ? fieldTree(fields) : undefined,
    embed: has("_embed") ? (embed.length ? new Set(embed) : true) : undefined,
    envelope: has("_envelope"),
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** `_rest_array_intersect_key_recursive`, with dot paths into lists applied to each item. */
function pick(value: unknown, tree: FieldTree): unknown {
  if (Array.isArray(value)) return value.map((item) => pick(item, tree));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [name, sub] of Object.entries(tree)) {
    if (!Object.hasOwn(value, name)) continue;
    out[name] = sub === true ? value[name] : pick(value[name], sub);
  }
  return out;
}

/** Dispatches a request through the app (the embedded GETs). */
export type Dispatch = (request: Request) => Response | Promise<Response>;

/** PHP's truthiness of a decoded JSON value (`array_filter`): not `[]`, `{}`, `""`, `0`, `false`, `null`. */
const filled = (value: unknown) =>
  Array.isArray(value)
    ? value.length > 0
    : isObject(value)
      ? Object.keys(value).length > 0
      : Boolean(value) && value !== "0";

/**
 * `_embedded` for one object's `_links`, or undefined when nothing is embeddable, as
 * `WP_REST_Server::embed_links` builds it: per relation, what each link answers (`[]` in the place
 * of a link that is not embeddable), kept when one of them answered something (an empty list, as
 * the terms of a post without any, is nothing).
 */
async function embedded(
  item: Record<string, unknown>,
  wanted: true | Set<string>,
  get: (href: string) => Promise<unknown>,
): Promise<Record<string, unknown[]> | undefined> {
  if (!isObject(item._links)) return undefined;
  const out: Record<string, unknown[]> = {};
  for (const [rel, links] of Object.entries(item._links)) {
    if (!Array.isArray(links) || (wanted !== true && !wanted.has(rel))) continue;
    const embeds: unknown[] = [];
    for (const link of links)
      embeds.push(
        isObject(link) && link.embeddable === true && typeof link.href === "string"
          ? await get(link.href)
          : [],
      );
    if (embeds.some(filled)) out[rel] = embeds;
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The URL of an embedded GET: the link, asking for WordPress's `embed` context unless it names a
 * context itself.
 */
function embedUrl(href: string): string {
  const url = new URL(href);
  if (!url.searchParams.has("context")) url.searchParams.set("context", "embed");
  return url.toString();
}

/**
 * Reshapes the answer in `c.res` as the request's global parameters ask (nothing when it names
 * none, or when the answer is not JSON).
 * @param dispatch how an embedded link is fetched (the app itself).
 */
export async function applyGlobalParams(c: AppContext, dispatch: Dispatch): Promise<void> {
  let query: ParamBag;
  try {
    query = requestQuery(c);
  } catch {
    return; // A query too long: the answer is that error, unshaped.
  }
  const reshape = reshapeOf(query);
  if (!reshape) return;
  const res = c.res;
  if (!(res.headers.get("content-type") ?? "").startsWith("application/json") || !res.body) return;
  let data: unknown = await res.json();
  const ok = res.status < 400;
  if (ok && reshape.embed) {
    const headers: Record<string, string> = {};
    const authorization = c.req.header("authorization");
    if (authorization) headers.authorization = authorization;
    const get = async (href: string) => {
      const answer = await dispatch(new Request(embedUrl(href), { headers }));
      return answer.headers.get("content-type")?.startsWith("application/json")
        ? await answer.json()
        : null;
    };
    const withEmbeds = async (item: unknown) => {
      if (!isObject(item)) return item;
      const found = await embedded(item, reshape.embed as true | Set<string>, get);
      return found ? { ...item, _embedded: found } : item;
    };
    data = Array.isArray(data) ? await Promise.all(data.map(withEmbeds)) : await withEmbeds(data);
  }
  if (ok && reshape.fields) data = pick(data, reshape.fields);
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  if (reshape.envelope) {
    const routeHeaders: Record<string, string> = {};
    for (const [name, value] of res.headers)
      if (name !== "content-type" && name !== "content-length")
        routeHeaders[headerName(name)] = value;
    const allow = c.get("allow");
    if (allow) routeHeaders.Allow = allow.join(", ");
    data = { body: data, status: res.status, headers: routeHeaders };
  }
  c.set("body", undefined);
  c.res = new Response(JSON.stringify(data), {
    status: reshape.envelope ? 200 : res.status,
    headers,
  });
}
