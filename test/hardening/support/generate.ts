/**
 * Generated requests for one route and method (support/fuzz.ts): which poisons apply, who sends,
 * noise, and the request arbitrary that combines them. Parts are generated once per route and method
 * into pools (from the run's seed) and combined by index per request, which keeps generation at a few
 * microseconds a request.
 */
import fc from "fast-check";
import { baseArb, MANUAL_POISONS, poisonArg, poisonable } from "./arguments";
import type { Container, Draft, Method } from "./encode";
import { type MethodSpec, PATH_ARGS, type RouteSpec } from "./routes";
import { bracketSuffix, jsonValue, nastyString } from "./values";
import type { Actor, World } from "./world";

export type Poison =
  | "arg"
  | "missing"
  | "ref"
  | "path"
  | "json"
  | "bigbody"
  | "bigquery"
  | "auth"
  | "actor"
  | "noroute"
  | "none";

const BROKEN_JSON = [
  "{",
  '{"a":',
  "[1,2",
  "nul",
  "{'single': 1}",
  '{"title": "a\u0000',
  "\ufeff\ufeff{}",
  '{"a":1}}',
  "[".repeat(5000),
  '{"a":NaN}',
  "tru",
  '{"a" 1}',
  "\u0000",
];
const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "application/vnd.api+json",
  "application/json;charset=ISO-8859-1",
];
const BAD_AUTH = fc.oneof(
  fc
    .tuple(
      fc.string({ unit: "grapheme-ascii", maxLength: 20 }),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 }),
    )
    .map(([u, p]) => `Basic ${btoa(`${u}:zz${p}`)}`),
  fc.constantFrom(
    "Basic",
    "Basic ",
    "Basic !!!not-base64!!!",
    `Basic ${btoa("admin:wrong")}`,
    `Basic ${btoa(":")}`,
    `Basic ${btoa("editor:test admin password")}`,
    `Basic ${btoa("subscriber:pw-author-0123456789")}`,
    `Basic ${btoa("nobody:pw-editor-0123456789")}`,
    "Bearer ",
    `Bearer ${"x".repeat(300)}`,
    "Bearer pw-editor-012345678",
    "bAsIc    Og==",
    `Basic ${btoa("admin")}`,
  ),
  fc
    .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 60 })
    .map((s) => `Bearer zz${s.replace(/[\r\n]/g, "")}`),
);
const BLOCKED_IP = "198.51.100.200";
const asciiValue = fc
  .string({ unit: "grapheme-ascii", maxLength: 60 })
  .map((s) => s.replace(/[\r\n\0]/g, " "));
const noiseHeaders = fc.record(
  {
    "accept-language": fc.constantFrom(
      "de",
      "xx",
      "*",
      "de-DE,de;q=0.9",
      "\u00e9".normalize("NFD").replace(/[^\x20-\x7e]/g, ""),
    ),
    "if-none-match": fc.oneof(
      fc.constantFrom("*", 'W/"x"', '"abc", *', '""', "garbage"),
      asciiValue,
    ),
    origin: fc.constantFrom("https://evil.example", "null", "http://calendar.test", "file://"),
    "x-d1-bookmark": fc.oneof(
      fc.constantFrom("garbage", `0000000-00000000-00000000-${"f".repeat(32)}`, "%00"),
      asciiValue,
    ),
    "user-agent": asciiValue,
    cookie: fc.constantFrom("wordpress_logged_in_x=admin%7C1", "a=b"),
    "x-wp-nonce": asciiValue,
    "x-forwarded-for": fc.constantFrom("127.0.0.1", "::1", "10.0.0.1, 1.2.3.4"),
  },
  { requiredKeys: [] },
);
const rawQueryNoise = fc.oneof(
  { weight: 24, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "%zz=%zz",
      "a=%E0%A4%A",
      "%=%",
      "&&&",
      "a[=1",
      "]=1",
      "=x",
      "%00=%00",
      "a%5B%5D%5B%5D=1",
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 1001, max: 1500 })
      .map((n) => Array.from({ length: n }, (_, i) => `k${i}=${i}`).join("&")),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 50, max: 300 }).map((n) => `deep${"[a]".repeat(n)}=1`),
  },
);

/** Unknown parameters (never a name any route knows). */
const noiseParams = (json: boolean) =>
  fc.dictionary(
    fc
      .tuple(
        fc.string({ unit: "grapheme-ascii", maxLength: 12 }),
        fc.option(bracketSuffix, { nil: "" }),
      )
      .map(([k, b]) => `zz${k.replace(/[[\]&=#%+]/g, "_")}${b}`),
    json ? fc.oneof(nastyString, jsonValue) : nastyString,
    { maxKeys: 4 },
  );

interface Plan {
  spec: MethodSpec | null;
  /** Which actor table requests draw from. */
  actors: "full" | "cheap";
  poisons: Poison[];
}

/**
 * How often each poison is drawn (out of the ones that apply). D1 round trips dominate the cost of a
 * request in the test runtime (about 1.5 ms each), so the poisons refused before any D1 read (bad
 * arguments) are the most frequent and those that make the handler read (references, paths) rarer.
 */
const POISON_WEIGHTS: Record<Poison, number> = {
  arg: 40,
  missing: 6,
  ref: 3,
  path: 4,
  json: 8,
  bigbody: 1,
  bigquery: 6,
  auth: 2,
  actor: 4,
  noroute: 10,
  none: 40,
};

/**
 * Who sends the requests. Administrators authenticate without a D1 read (ADMIN_APP_PASSWORD), every
 * other user costs one (about 1.5–3 ms in the test runtime), so they are drawn less often; on paths
 * that no handler answers (`cheap`), where the sender changes nothing, only administrators and
 * anonymous clients are drawn.
 */
const ACTOR_TABLES: Record<"full" | "cheap", Actor[]> = {
  full: (
    [
      ["administrator", 80],
      ["editor", 2],
      ["author", 2],
      ["contributor", 2],
      ["subscriber", 2],
      ["anonymous", 12],
    ] as Array<[Actor, number]>
  ).flatMap(([a, n]) => Array<Actor>(n).fill(a)),
  cheap: (
    [
      ["administrator", 6],
      ["anonymous", 4],
    ] as Array<[Actor, number]>
  ).flatMap(([a, n]) => Array<Actor>(n).fill(a)),
};

function plan(route: RouteSpec, method: Method, w: World): Plan {
  const weighted = (list: Poison[]) =>
    list.flatMap((x) => Array<Poison>(POISON_WEIGHTS[x]).fill(x));
  if (method === "OPTIONS")
    return {
      spec: null,
      actors: "cheap",
      poisons: weighted(["auth", "noroute", "none"]).map((x) => (x === "none" ? "noroute" : x)),
    };
  const spec = route.methods[method] ?? (method === "HEAD" ? route.methods.GET : undefined) ?? null;
  if (!spec) return { spec: null, actors: "cheap", poisons: weighted(["none", "auth", "noroute"]) };
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const args = Object.entries(spec.args).filter(([n]) => !PATH_ARGS.has(n));
  const out: Poison[] = ["auth", "noroute"];
  if (args.some(([n, a]) => poisonable(a, n, body ? "json" : "query") || MANUAL_POISONS[n]))
    out.push("arg");
  if (args.some(([, a]) => a.required)) out.push("missing");
  if (spec.refPoisons) out.push("ref");
  if (route.badPath?.(w, method)) out.push("path");
  if (body && spec.parses) out.push("json", "bigbody");
  if (spec.parses) out.push("bigquery");
  if (spec.forbidden.length) out.push("actor");
  return { spec, actors: "full", poisons: weighted(out) };
}

export interface Generated {
  draft: Draft;
  poison: Poison;
  actor: Actor | "bad";
  expect4xx: boolean;
}

const CONTAINERS: Container[] = ["json", "json", "json", "form", "form", "multipart", "query"];
const LANGS = ["", "", "/en", "/de"];
const BAD_LANGS = ["/xx", "/EN", "/de-DE", "/%00", "/wp-json"];
/** Two more segments: no route has two variable segments after any route's path. */
const JUNK = fc.oneof(
  nastyString.map((s) => `/zz-${encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "")) || "x"}/zz`),
  fc.constantFrom("/zz/zz/", "/zz%2F..%2F/zz", "/..;/zz/zz", "/zz/zz.json"),
);

/**
 * Values generated once per route and method (fast-check, from the run's seed), which every request
 * then combines by index: the combinations are as varied as drawing each part anew, at a fraction of
 * the cost, so that 10,000 requests per route and method fit in CI's time.
 */
interface Pools {
  base: Partial<Record<Container, Array<Record<string, unknown>>>>;
  arg: Partial<Record<Container, Array<[string, unknown] | null>>>;
  ref: Array<[string, unknown]>;
  paths: string[];
  badPaths: string[];
  noiseJson: Array<Record<string, unknown>>;
  noiseText: Array<Record<string, unknown>>;
  headers: Array<Record<string, string | undefined>>;
  rawQueries: string[];
  badAuth: string[];
  junk: string[];
}

function buildPools(
  route: RouteSpec,
  method: Method,
  w: World,
  family: "malformed" | "hostile",
  seed: number,
): Pools {
  const sample = <T>(arb: fc.Arbitrary<T>, n: number, k: number) =>
    fc.sample(arb, { numRuns: n, seed: seed + k });
  const spec = plan(route, method, w).spec;
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const containers: Container[] = body ? ["json", "form", "multipart", "query"] : ["query"];
  const pools: Pools = {
    base: {},
    arg: {},
    ref: spec?.refPoisons
      ? sample(
          fc
            .constantFrom(...Object.entries(spec.refPoisons(w)))
            .chain(([n, a]) => a.map((x) => [n, x] as [string, unknown])),
          150,
          1,
        )
      : [],
    paths: sample(route.path(w), 20, 2),
    badPaths: route.badPath?.(w, method) ? sample(route.badPath(w, method)!, 150, 3) : [],
    noiseJson: sample(noiseParams(true), 200, 4),
    noiseText: sample(noiseParams(false), 200, 5),
    headers: sample(noiseHeaders, 200, 6),
    rawQueries: sample(rawQueryNoise, 100, 7),
    badAuth: sample(BAD_AUTH, 150, 8),
    junk: sample(JUNK, 100, 9),
  };
  containers.forEach((c, i) => {
    if (!spec) return;
    pools.base[c] = sample(baseArb(spec, w, c, family === "hostile" ? 0.5 : 0.3), 120, 10 + i);
    if (family === "malformed") pools.arg[c] = sample(poisonArg(spec, w, c), 150, 20 + i);
  });
  return pools;
}

export function requestArb(
  route: RouteSpec,
  method: Method,
  w: World,
  family: "malformed" | "hostile",
  seed: number,
): fc.Arbitrary<Generated> {
  const p = plan(route, method, w);
  const pools = buildPools(route, method, w, family, seed);
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const poisons = family === "hostile" ? (["none"] as Poison[]) : p.poisons;
  const pick = <T>(list: T[], i: number): T => list[i % list.length];
  return fc
    .record({
      poison: fc.constantFrom(...poisons),
      container: body ? fc.constantFrom(...CONTAINERS) : fc.constant<Container>("query"),
      lang: fc.constantFrom(...LANGS),
      actor: fc.nat(ACTOR_TABLES[p.actors].length - 1),
      ip: fc.integer({ min: 1, max: 2 ** 24 - 1 }),
      i: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    })
    .map((r): Generated => {
      const { container } = r;
      const [iBase, iArg, iNoise, iHeaders, iRaw, iPath, iAux, iAux2] = r.i;
      const spec = p.spec;
      const params: Record<string, unknown> = {
        ...(spec ? pick(pools.base[container] ?? [{}], iBase) : {}),
      };
      let path = pick(pools.paths, iPath);
      let lang = r.lang;
      let actor: Actor | "bad" = ACTOR_TABLES[p.actors][r.actor];
      let rawBody: string | undefined;
      const headers: Record<string, string> = {
        "cf-connecting-ip": `10.${r.ip >> 16}.${(r.ip >> 8) & 255}.${r.ip & 255}`,
      };
      for (const [k, value] of Object.entries(pick(pools.headers, iHeaders)))
        if (value !== undefined) headers[k] = value;
      let rawQuery = pick(pools.rawQueries, iRaw);
      const arg = pools.arg[container] ? pick(pools.arg[container]!, iArg) : null;
      const ref = pools.ref.length ? pick(pools.ref, iArg) : null;
      // A poison that found nothing to spoil in this encoding falls back to bad credentials.
      const poison: Poison =
        (r.poison === "arg" && !arg) || (r.poison === "ref" && !ref) ? "auth" : r.poison;
      switch (poison) {
        case "arg":
          params[arg![0]] = arg![1];
          break;
        case "missing": {
          const required = Object.entries(spec!.args).filter(
            ([n, a]) => a.required && !PATH_ARGS.has(n),
          );
          delete params[required[iAux % required.length][0]];
          break;
        }
        case "ref":
          params[ref![0]] = ref![1];
          // `event` is an alias of `post` that wins over it (§7.2): a bad `post` needs no `event`.
          if (ref![0] === "post") delete params.event;
          // Other statuses are refused only to those who may not edit.
          if (ref![0] === "status") actor = iAux % 2 ? "anonymous" : "subscriber";
          break;
        case "path":
          path = pick(pools.badPaths, iAux);
          break;
        case "json":
          rawBody = pick(BROKEN_JSON, iAux);
          headers["content-type"] = pick(JSON_TYPES, iAux2);
          break;
        case "bigbody":
          rawBody = BIG_BODY;
          headers["content-type"] = pick(
            [
              "application/x-www-form-urlencoded",
              "application/json",
              `multipart/form-data; boundary=x`,
            ],
            iAux2,
          );
          break;
        case "bigquery":
          rawQuery = `${rawQuery ? `${rawQuery}&` : ""}zzbig=${"q".repeat(8200)}`;
          break;
        case "auth":
          actor = "bad";
          headers.authorization = pick(pools.badAuth, iAux);
          if (iAux2 % 10 === 0) headers["cf-connecting-ip"] = BLOCKED_IP;
          break;
        case "actor":
          actor = pick(spec!.forbidden, iAux);
          break;
        case "noroute":
          if (iAux % 3 === 0) lang = pick(BAD_LANGS, iAux2);
          else path = `${path}${pick(pools.junk, iAux2)}`;
          break;
      }
      if (actor !== "bad" && actor !== "anonymous")
        headers.authorization = w.people[actor].headers.authorization;
      else if (actor === "anonymous" && iAux2 % 7 === 0)
        headers.authorization = 'Digest username="admin"';
      const noise = pick(container === "json" ? pools.noiseJson : pools.noiseText, iNoise);
      const inBody = body && container !== "query" && rawBody === undefined;
      const draft: Draft = {
        method,
        path,
        lang,
        // With a raw body (broken JSON, oversize) the other parameters travel in the query.
        query: inBody ? {} : rawBody !== undefined ? { ...params } : { ...params, ...noise },
        rawQuery,
        container: container === "query" ? "json" : container,
        body: inBody ? { ...params, ...noise } : {},
        rawBody,
        headers,
      };
      return { draft, poison, actor, expect4xx: family === "malformed" };
    });
}

const BIG_BODY = `a=${"x".repeat(1024 * 1024)}`;
