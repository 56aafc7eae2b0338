/**
 * Generated requests for one route and method (support/fuzz.ts): which poisons apply, who sends,
 * the sweep (every poison and every argument once) and the request arbitrary that combines them.
 * Parts are generated once per route and method into pools (from the run's seed) and combined by
 * index per request, which keeps generation at a few microseconds a request.
 */
import fc from "fast-check";
import {
  baseArb,
  completeBases,
  MANUAL_POISONS,
  poisonArg,
  poisonable,
  poisonableArgs,
  poisonFor,
} from "./arguments";
import type { Container, Draft, Method } from "./encode";
import {
  BAD_AUTH,
  BAD_LANGS,
  BIG_BODY,
  BLOCKED_IP,
  BROKEN_JSON,
  JSON_TYPES,
  JUNK,
  noiseHeaders,
  noiseParams,
  rawQueryNoise,
} from "./noise";
import { type MethodSpec, PATH_ARGS, type RouteSpec } from "./routes";
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

export interface Plan {
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

/**
 * What requests for one route and method draw from.
 * @returns `spec` null for OPTIONS (answered by the route description, which reads no parameter) and
 * for methods the route has no handler for (support/fuzz.ts sends those one request each).
 */
export function plan(route: RouteSpec, method: Method, w: World): Plan {
  const weighted = (list: Poison[]) =>
    list.flatMap((x) => Array<Poison>(POISON_WEIGHTS[x]).fill(x));
  if (method === "OPTIONS")
    return {
      spec: null,
      actors: "cheap",
      poisons: weighted(["auth", "noroute", "none"]).map((x) => (x === "none" ? "noroute" : x)),
    };
  const spec = handlerSpec(route, method);
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

/** The handler of `method` on the route (HEAD is GET's), or undefined when it has none. */
export function handlerSpec(route: RouteSpec, method: Method): MethodSpec | undefined {
  return route.methods[method] ?? (method === "HEAD" ? route.methods.GET : undefined);
}

export interface Generated {
  draft: Draft;
  poison: Poison;
  actor: Actor | "bad";
  expect4xx: boolean;
  /** The route's arguments (path variables aside) the request carries, valid or poisoned. */
  args: string[];
}

const CONTAINERS: Container[] = ["json", "json", "json", "form", "form", "multipart", "query"];
const LANGS = ["", "", "/en", "/de"];
/**
 * Values generated once per route and method (fast-check, from the run's seed), which every request
 * then combines by index: the combinations are as varied as drawing each part anew, at a fraction of
 * the cost, so that 10,000 requests per route and method fit in CI's time.
 */
interface Pools {
  base: Partial<Record<Container, Array<Record<string, unknown>>>>;
  /** Bases with every argument whose generated value passed (for the sweep: all reached at once). */
  full: Partial<Record<Container, Array<Record<string, unknown>>>>;
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
    full: {},
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
    pools.full[c] = completeBases(
      sample(baseArb(spec, w, c, 1), 4, 30 + i),
      spec,
      w,
      c,
      seed + 40 + i,
    );
    if (family === "malformed") pools.arg[c] = sample(poisonArg(spec, w, c), 150, 20 + i);
  });
  return pools;
}

/** One request's draws: indices into the pools and tables (see `compose`). */
interface Choice {
  poison: Poison;
  container: Container;
  lang: string;
  actor: number;
  ip: number;
  i: number[];
}

interface Context {
  route: RouteSpec;
  method: Method;
  w: World;
  plan: Plan;
  pools: Pools;
  family: "malformed" | "hostile";
}

/**
 * Builds one request from its draws. `arg` and `base` replace the drawn poisoned argument and base
 * parameters (the sweep picks them).
 */
function compose(
  x: Context,
  r: Choice,
  override: { arg?: [string, unknown]; base?: Record<string, unknown> } = {},
): Generated {
  const { pools, w, method, family } = x;
  const p = x.plan;
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const pick = <T>(list: T[], i: number): T => list[i % list.length];
  const { container } = r;
  const [iBase, iArg, iNoise, iHeaders, iRaw, iPath, iAux, iAux2] = r.i;
  const spec = p.spec;
  const params: Record<string, unknown> = {
    ...(override.base ?? (spec ? pick(pools.base[container] ?? [{}], iBase) : {})),
  };
  let path = pick(pools.paths, iPath);
  let lang = r.lang;
  let actor: Actor | "bad" = ACTOR_TABLES[p.actors][r.actor % ACTOR_TABLES[p.actors].length];
  let rawBody: string | undefined;
  const headers: Record<string, string> = {
    "cf-connecting-ip": `10.${r.ip >> 16}.${(r.ip >> 8) & 255}.${r.ip & 255}`,
  };
  for (const [k, value] of Object.entries(pick(pools.headers, iHeaders)))
    if (value !== undefined) headers[k] = value;
  let rawQuery = pick(pools.rawQueries, iRaw);
  const arg = override.arg ?? (pools.arg[container] ? pick(pools.arg[container]!, iArg) : null);
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
  const args = spec ? Object.keys(params).filter((n) => n in spec.args) : [];
  return { draft, poison, actor, expect4xx: family === "malformed", args };
}

/**
 * The requests for one route and method: `sweep`, a fixed list that applies every poison that
 * applies at least once and spoils every argument that can be spoiled (each on top of a base that
 * carries every argument), so even a small run reaches all of them; and `arb`, the generated ones.
 * Both depend on `seed` only.
 */
export function requests(
  route: RouteSpec,
  method: Method,
  w: World,
  family: "malformed" | "hostile",
  seed: number,
): { sweep: Generated[]; arb: fc.Arbitrary<Generated> } {
  const p = plan(route, method, w);
  const x: Context = {
    route,
    method,
    w,
    plan: p,
    pools: buildPools(route, method, w, family, seed),
    family,
  };
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const poisons = family === "hostile" ? (["none"] as Poison[]) : p.poisons;
  const arb = fc
    .record({
      poison: fc.constantFrom(...poisons),
      container: body ? fc.constantFrom(...CONTAINERS) : fc.constant<Container>("query"),
      lang: fc.constantFrom(...LANGS),
      actor: fc.nat(ACTOR_TABLES[p.actors].length - 1),
      ip: fc.integer({ min: 1, max: 2 ** 24 - 1 }),
      i: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
    })
    .map((r): Generated => compose(x, r));
  return { sweep: sweep(x, seed), arb };
}

function sweep(x: Context, seed: number): Generated[] {
  const { plan: p, pools, method, w, family } = x;
  const body = ["POST", "PUT", "PATCH", "DELETE"].includes(method);
  const containers: Container[] = body ? ["json", "form", "multipart", "query"] : ["query"];
  const out: Generated[] = [];
  // Fixed, varied draws: the k-th request of the sweep takes the k-th of every table.
  const choice = (poison: Poison, container: Container): Choice => {
    const k = out.length;
    return {
      poison,
      container,
      lang: LANGS[k % LANGS.length],
      actor: k * 7,
      ip: 1 + ((seed >>> 0) % 1000) * 1000 + k,
      i: Array.from({ length: 8 }, (_, j) => k * (j + 1) + j),
    };
  };
  const full = (container: Container, k: number) => {
    const list = pools.full[container];
    return list?.length ? list[k % list.length] : undefined;
  };
  if (family === "hostile") {
    containers.forEach((c) => {
      for (const [k, base] of (pools.full[c] ?? [{}]).entries())
        out.push(compose(x, choice("none", c), { base: { ...base, ...full(c, k + 1) } }));
    });
    return out;
  }
  for (const poison of new Set(p.poisons)) {
    if (poison === "arg") continue;
    const c = containers[out.length % containers.length];
    out.push(compose(x, choice(poison, c), { base: full(c, out.length) }));
  }
  if (!p.spec) return out;
  const spec = p.spec;
  const names = Object.entries(spec.args).filter(([n]) => !PATH_ARGS.has(n));
  for (const [k, [name, a]] of names.entries()) {
    // The first container (from the k-th on) in which some value spoils the argument.
    const order = containers.map((_, j) => containers[(k + j) % containers.length]);
    for (const c of order) {
      if (!poisonableArgs(spec, c).some(([n]) => n === name)) continue;
      const bad = fc
        .sample(poisonFor(name, a, w, c), { numRuns: 10, seed: seed + 100 + k })
        .find((v): v is [string, unknown] => v !== null);
      if (!bad) continue;
      out.push(compose(x, choice("arg", c), { arg: bad, base: full(c, k) }));
      break;
    }
  }
  return out;
}
