/**
 * The generated-request fuzzer. For one route and method it generates requests that
 * are malformed by construction — each carries at least one poison that the API must refuse with a
 * 4xx whoever sends it — on top of hostile but valid values (unicode edge cases, SQL/FTS/HTML
 * metacharacters, bracket abuse, absurd dates, huge ids) and noise (unknown keys by the thousand,
 * odd headers, broken escapes). Every answer is checked (src: `problems`), the content version after
 * every batch, and the whole database's digest after the run.
 *
 * Poisons: an argument whose value fails the route's own schema (checked with the schema from src
 * after encoding), a required argument left out, a reference that passes validation but names
 * nothing, a path that names nothing acceptable, broken JSON, a body over 1 MiB, a query string over
 * the limit, bad credentials, an actor who may never do this, a path that matches no route.
 *
 * Where the requests go: a method the route has no handler for gets one request (the
 * answer is the same 404 `rest_no_route` whatever is sent); every handled method first gets the
 * sweep (support/generate.ts `requests`: each poison that applies and each argument once), then the
 * generated depth — `DEPTH.parsing` requests where the handler parses input, `DEPTH.other` where it
 * does not (OPTIONS, parameterless reads) or where it is GET's (HEAD: the same handler and parsing,
 * answered without the body) — times `FUZZ_SCALE`.
 *
 * `FUZZ_SCALE` unset or 0 (`npm test`): the sweep and one batch per route and method; 1
 * (`npm run test:fuzz`): full depth. Runs are reproducible: the seed of each route and method is
 * derived from `FUZZ_SEED` and its name, and printed on failure with the command that replays it.
 * Both variables are read by vitest.config.ts and handed over with `provide`.
 */
import fc from "fast-check";
import { describe, expect, inject, it } from "vitest";
import { type Answer, call, describe as describeRequest, problems } from "./client";
import { contentDigest, contentVersion } from "./digest";
import { METHODS, type Method, toRequest } from "./encode";
import { type Generated, handlerSpec, requests } from "./generate";
import { PATH_ARGS, type RouteSpec, route as routeNamed } from "./routes";
import { seedWorld, type World } from "./world";

/** `FUZZ_SEED` (vitest.config.ts): the base every seed is derived from. */
const BASE_SEED = inject("fuzzSeed") ?? 20261123;
/** `FUZZ_SCALE` (vitest.config.ts): fraction of the full depth (`DEPTH`); 0: the sweep and one batch. */
export const SCALE = inject("fuzzScale") ?? 0;

/** Generated requests per route and method at full depth (`FUZZ_SCALE=1`). */
export const DEPTH = {
  /** Handlers that read parameters or a body: where answers differ with what is sent. */
  parsing: 10_000,
  /**
   * OPTIONS, handlers that read neither (their answers differ by path, sender and credentials) and
   * HEAD (GET's handler, whose parsing GET's depth covers; HEAD's answer has no body to check).
   */
  other: 1_000,
};

/** Requests sent in parallel per property run. */
const BATCH = 40;

/** Per route and method: the seed, derived from its name. */
export function seedFor(name: string): number {
  let h = BASE_SEED | 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

/** Replays a failure: the variables of this run and the test to run. */
function replay(route: RouteSpec): string {
  const pattern = route.name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `FUZZ_SEED=${BASE_SEED} FUZZ_SCALE=${SCALE} npx vitest run --project fuzz -t '${pattern}'`;
}

export interface FuzzReport {
  /** Requests sent: the sweep's and the generated ones. */
  requests: number;
  /** Of those, generated (after the sweep). */
  generated: number;
  statuses: Record<number, number>;
  poisons: Record<string, number>;
  ms: number;
}

async function runOne(
  g: Generated,
  secrets: string[],
): Promise<{ answer: Answer; failures: string[]; text: () => string }> {
  const { request, bodyText } = toRequest(g.draft);
  const shown = {
    method: request.method,
    url: request.url,
    headers: new Headers(request.headers),
    body: bodyText,
  };
  const answer = await call(request);
  const failures = problems(shown, answer, { expect4xx: g.expect4xx, secrets });
  return {
    answer,
    failures,
    text: () =>
      `${failures.join("; ")}\n  poison=${g.poison} actor=${g.actor}\n  request: ${describeRequest(shown, bodyText)}\n  answer: ${answer.status} ${answer.text.slice(0, 300)}`,
  };
}

/**
 * Fuzzes one route and method: the sweep, then `generated` requests (a multiple of the batch size),
 * all malformed (`family: "malformed"`, each must be refused with a 4xx), or hostile but valid
 * (`"hostile"`, only reads: each must be answered without a 5xx). The database must not change.
 * @param w the seeded world (the database as `seedWorld` left it).
 * @throws Error naming the seed (and the sweep request or fast-check path) of the first failure.
 */
export async function fuzz(
  w: World,
  route: RouteSpec,
  method: Method,
  generated: number,
  family: "malformed" | "hostile" = "malformed",
): Promise<FuzzReport> {
  const started = Date.now();
  const secrets = [...w.credentials];
  const before = await contentDigest();
  const name = `${family} ${method} ${route.name}`;
  const seed = seedFor(name);
  const statuses: Record<number, number> = {};
  const poisons: Record<string, number> = {};
  let sent = 0;
  const { sweep, arb } = requests(route, method, w, family, seed);
  // The sweep's promise (support/generate.ts): every argument in at least one request.
  const spec = handlerSpec(route, method);
  const reached = new Set(sweep.flatMap((g) => g.args));
  const missed = Object.keys(spec?.args ?? {}).filter((n) => !PATH_ARGS.has(n) && !reached.has(n));
  if (missed.length)
    throw new Error(`${name}: no request of the sweep carries ${missed.join(", ")} (seed ${seed})`);
  const send = async (batch: Generated[]) => {
    const version = await contentVersion();
    const results = await Promise.all(batch.map((g) => runOne(g, secrets)));
    for (const [i, r] of results.entries()) {
      sent++;
      statuses[r.answer.status] = (statuses[r.answer.status] ?? 0) + 1;
      poisons[batch[i].poison] = (poisons[batch[i].poison] ?? 0) + 1;
      if (r.failures.length) throw new Error(r.text());
    }
    const after = await contentVersion();
    if (after !== version)
      throw new Error(
        `a batch changed the content version (${version} → ${after}); statuses ${JSON.stringify(results.map((r) => r.answer.status))}`,
      );
  };
  const failed = (where: string, cause: unknown) =>
    new Error(
      `${name} failed (seed ${seed}, ${where}, after ${sent} requests): ${cause instanceof Error ? cause.message : String(cause)}\n  replay: ${replay(route)}`,
    );
  for (let k = 0; k < sweep.length; k += BATCH) {
    try {
      await send(sweep.slice(k, k + BATCH));
    } catch (err) {
      throw failed(`sweep requests ${k}–${Math.min(k + BATCH, sweep.length) - 1}`, err);
    }
  }
  const swept = sent;
  const details = await fc.check(
    fc.asyncProperty(fc.array(arb, { minLength: BATCH, maxLength: BATCH }), send),
    { numRuns: Math.max(1, Math.ceil(generated / BATCH)), seed, endOnFailure: true },
  );
  // fast-check's own report prints the whole batch; the first failing request says more.
  if (details.failed)
    throw failed(`generated, fast-check path ${details.counterexamplePath}`, details.errorInstance);
  const after = await contentDigest();
  if (after !== before)
    throw new Error(
      `${name}: the database changed (content digest ${before.slice(0, 12)} → ${after.slice(0, 12)}; seed ${seed})\n  replay: ${replay(route)}`,
    );
  const report = {
    requests: sent,
    generated: sent - swept,
    statuses,
    poisons,
    ms: Date.now() - started,
  };
  // A line per route and method on deep runs (npm run test:fuzz); npm test stays quiet.
  if (SCALE > 0)
    console.log(
      `[fuzz] ${name}: ${swept} swept + ${report.generated} generated requests in ${report.ms} ms, statuses ${JSON.stringify(statuses)}`,
    );
  return report;
}

/**
 * The methods the route has no handler for: one request each (as the administrator, so no
 * credential check decides), answered 404 `rest_no_route` in the envelope; nothing changes.
 * @returns the failures.
 */
async function unrouted(w: World, route: RouteSpec, methods: Method[]): Promise<string[]> {
  const failures: string[] = [];
  const before = await contentDigest();
  const [path] = fc.sample(route.path(w), { numRuns: 1, seed: seedFor(`unrouted ${route.name}`) });
  for (const method of methods) {
    const draft = {
      method,
      path,
      lang: "",
      query: {},
      rawQuery: "",
      container: "json" as const,
      body: {},
      headers: { authorization: w.people.administrator.headers.authorization },
    };
    const { request } = toRequest(draft);
    const shown = { method, url: request.url, headers: new Headers(request.headers) };
    const answer = await call(request);
    const found = problems(shown, answer, { expect4xx: true, secrets: w.credentials });
    if (answer.status !== 404) found.push(`expected 404, got ${answer.status}`);
    if (method !== "HEAD" && answer.body?.code !== "rest_no_route")
      found.push(`expected rest_no_route, got ${answer.body?.code}`);
    if (found.length)
      failures.push(`${method} ${route.name} (no handler): ${found.join("; ")}\n  ${request.url}`);
  }
  const after = await contentDigest();
  if (after !== before) failures.push(`${route.name}: a method without a handler changed the data`);
  return failures;
}

/**
 * Registers one test per route: one request per method the route has no handler for; for every
 * other method the sweep and its generated depth (`DEPTH` × `FUZZ_SCALE`, one batch at scale
 * 0), then the sweep and `hostile` × scale valid reads (one batch at scale 0). Every method runs
 * even when an earlier one failed, and the test reports all failures.
 */
export function fuzzRoute(
  route: RouteSpec,
  methods: Method[],
  options: { hostile?: number } = {},
): void {
  const depth = (n: number) => (SCALE > 0 ? Math.max(BATCH, Math.round(n * SCALE)) : BATCH);
  const without = methods.filter((m) => m !== "OPTIONS" && !handlerSpec(route, m));
  const runs: Array<[Method, number, "malformed" | "hostile"]> = methods
    .filter((m) => !without.includes(m))
    .map((m) => [
      m,
      depth(m !== "HEAD" && handlerSpec(route, m)?.parses ? DEPTH.parsing : DEPTH.other),
      "malformed",
    ]);
  if (route.methods.GET && options.hostile) runs.push(["GET", depth(options.hostile), "hostile"]);
  const counts = runs.map(([m, n, f]) => `${f === "hostile" ? "hostile GET" : m} ${n}`).join(", ");
  const title = `${route.name}: the sweep, then generated requests (${counts}), malformed ones refused with a 4xx envelope; ${without.length ? `${without.join(", ")}: 404 rest_no_route; ` : ""}nothing changed`;
  it(title, async () => {
    const w = await seedWorld();
    const failures: string[] = without.length ? await unrouted(w, route, without) : [];
    for (const [method, count, family] of runs) {
      try {
        const report = await fuzz(w, route, method, count, family);
        expect(report.generated).toBeGreaterThanOrEqual(count);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
  }, 3_600_000);
}

/**
 * The fuzz tests of one resource of the namespace: its list route `ns /<base>` (with 1,000 hostile
 * reads at full depth) and its item routes (`items`: path suffixes such as `/{id}`), every method.
 * @example fuzzResource("venues", ["/{id}", "/by-slug/{slug}"])
 */
export function fuzzResource(base: string, items: string[]): void {
  describe(`fuzz: /${base}`, () =>
    fuzzRoute(routeNamed(`ns /${base}`), METHODS, { hostile: 1000 }));
  for (const item of items)
    describe(`fuzz: /${base}${item}`, () => fuzzRoute(routeNamed(`ns /${base}${item}`), METHODS));
}
