/**
 * The generated-request fuzzer (issue 9 item 1). For one route and method it generates requests that
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
 * Runs are reproducible: the seed of each route and method is fixed (printed on failure);
 * `VITE_FUZZ_SEED` changes them all, `VITE_FUZZ_SCALE` multiplies the number of requests
 * (Vite passes only `VITE_` variables to the tests).
 */
import fc from "fast-check";
import { expect, it } from "vitest";
import { type Answer, call, describe as describeRequest, problems } from "./client";
import { contentDigest, contentVersion } from "./digest";
import { type Method, toRequest } from "./encode";
import { type Generated, requestArb } from "./generate";
import type { RouteSpec } from "./routes";
import { seedWorld, type World } from "./world";

const ENV = (import.meta as { env?: Record<string, string | undefined> }).env ?? {};
const BASE_SEED = Number(ENV.VITE_FUZZ_SEED ?? 20261123);
/** Multiplies every suite's request count (CI runs 1: 10,000 requests per route and method). */
export const SCALE = Number(ENV.VITE_FUZZ_SCALE ?? 1);

/** Requests sent in parallel per property run. */
const BATCH = 40;

/** Per route and method: the seed, derived from its name. */
export function seedFor(name: string): number {
  let h = BASE_SEED | 0;
  for (const ch of name) h = (Math.imul(h, 31) + ch.charCodeAt(0)) | 0;
  return h;
}

export interface FuzzReport {
  requests: number;
  statuses: Record<number, number>;
  poisons: Record<string, number>;
  ms: number;
}

/** Every finished run, for the closing summary. */
export const REPORTS: Array<{ name: string } & FuzzReport> = [];

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
 * Fuzzes one route and method: `requests` generated requests (a multiple of the batch size), all
 * malformed (`family: "malformed"`, each must be refused with a 4xx), or hostile but valid
 * (`"hostile"`, only reads: each must be answered without a 5xx). The database must not change.
 * @param w the seeded world (the database as `seedWorld` left it).
 */
export async function fuzz(
  w: World,
  route: RouteSpec,
  method: Method,
  requests: number,
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
  const runs = Math.max(1, Math.ceil(requests / BATCH));
  const arb = requestArb(route, method, w, family, seed);
  const details = await fc.check(
    fc.asyncProperty(fc.array(arb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
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
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  // fast-check's own report prints the whole batch; the first failing request says more.
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error
        ? details.errorInstance.message
        : String(details.errorInstance);
    throw new Error(`${name} failed (seed ${seed}, after ${sent} requests): ${cause}`);
  }
  const after = await contentDigest();
  if (after !== before)
    throw new Error(
      `${name}: the database changed (content digest ${before.slice(0, 12)} → ${after.slice(0, 12)})`,
    );
  const report = { requests: sent, statuses, poisons, ms: Date.now() - started };
  REPORTS.push({ name, ...report });
  console.log(
    `[fuzz] ${name}: ${sent} requests in ${report.ms} ms, statuses ${JSON.stringify(statuses)}`,
  );
  return report;
}

/**
 * Registers one test per route: for every method, 10,000 malformed requests (times
 * `VITE_FUZZ_SCALE`), then `hostile` valid reads; every method runs even when an earlier one failed,
 * and the test reports all failures.
 */
export function fuzzRoute(
  route: RouteSpec,
  methods: Method[],
  options: { requests?: number; hostile?: number } = {},
): void {
  const requests = Math.round((options.requests ?? 10_000) * SCALE);
  const hostile = route.methods.GET ? Math.round((options.hostile ?? 0) * SCALE) : 0;
  const title = `${methods.join(", ")} ${route.name}: ${requests} generated malformed requests per method${hostile ? ` and ${hostile} hostile reads` : ""}, all refused with a 4xx envelope, nothing changed`;
  it(title, async () => {
    const w = await seedWorld();
    const failures: string[] = [];
    const runs: Array<[Method, number, "malformed" | "hostile"]> = methods.map((m) => [
      m,
      requests,
      "malformed",
    ]);
    if (hostile) runs.push(["GET", hostile, "hostile"]);
    for (const [method, count, family] of runs) {
      try {
        const report = await fuzz(w, route, method, count, family);
        expect(report.requests).toBeGreaterThanOrEqual(count);
      } catch (err) {
        failures.push(err instanceof Error ? err.message : String(err));
      }
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
  }, 3_600_000);
}
