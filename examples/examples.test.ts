/**
 * `npm run test:examples`: the example sites (examples/astro, examples/eleventy) built against
 * `npm start` (test/e2e/global-setup.ts starts it on a free port with a temporary `--persist-to`),
 * through a counting proxy. Each site is built, one event is changed through the API, and the site
 * is built again: the second build must ask each list of each language at most once (plus
 * `/deleted`), each answer small, less than 5% of the first build's bytes, and show the change on
 * both languages' pages. The counts are printed.
 *
 * Each example installs from its own lockfile (`npm ci`, or on a developer's machine with an
 * install already there, a fresh copy of the packages only); the packages are built before
 * (`tsc -b packages`, the npm script).
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { type CountingProxy, countingProxy, type Hit } from "./support/proxy";

const ROOT = path.resolve(import.meta.dirname, "..");
const ORIGIN = inject("e2eOrigin");
const PASSWORD = inject("e2eAdminPassword");
const TTL_MS = inject("e2eContentVersionTtlMs");
const LANGUAGES = ["en", "de"] as const;
const LISTS = ["events", "venues", "organizers", "categories", "tags", "deleted"] as const;

/** Runs a command in `cwd`; its output is kept for the error message when it fails. */
function run(cwd: string, command: string, args: string[], env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env, ASTRO_TELEMETRY_DISABLED: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`${command} ${args.join(" ")} in ${cwd} exited ${code}:\n${out}`)),
    );
  });
}

/** Installs an example from its lockfile; the packages are copied in anew either way. */
async function install(dir: string) {
  if (process.env.CI || !existsSync(path.join(dir, "node_modules"))) {
    await run(dir, "npm", ["ci", "--no-audit", "--no-fund"]);
  } else {
    rmSync(path.join(dir, "node_modules", "@tec-edge"), { recursive: true, force: true });
    await run(dir, "npm", ["install", "--no-audit", "--no-fund"]);
  }
}

/** The build's requests by language and list: `en events` → hits. */
function byList(hits: Hit[]): Map<string, Hit[]> {
  const out = new Map<string, Hit[]>();
  for (const hit of hits) {
    const m = /^\/(en|de)\/wp-json\/tribe\/events\/v1\/([a-z]+)/.exec(hit.url);
    const key = m ? `${m[1]} ${m[2]}` : `other ${hit.url}`;
    out.set(key, [...(out.get(key) ?? []), hit]);
  }
  return out;
}

/** Body bytes (decompressed) and wire bytes (headers and compressed bodies) of some requests. */
const total = (hits: Hit[], of: "body" | "wire") => hits.reduce((sum, h) => sum + h[of], 0);
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(2)}%`;

/** As admin, straight to the service: changes `id`'s title. */
async function retitle(id: number, title: string) {
  const res = await fetch(`${ORIGIN}/wp-json/tribe/events/v1/events/${id}`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${PASSWORD}`).toString("base64")}`,
      "content-type": "application/json",
    },
    body: JSON.stringify({ title }),
  });
  expect(res.status, await res.text()).toBe(200);
}

interface Example {
  name: string;
  dir: string;
  /** Where the built page of an event is. */
  page: (lang: string, slug: string) => string;
  /** Files the site keeps between builds besides its install (cleared before the first build). */
  state: string[];
}

const EXAMPLES: Example[] = [
  {
    name: "astro",
    dir: path.join(ROOT, "examples", "astro"),
    page: (lang, slug) => path.join("dist", lang, "events", slug, "index.html"),
    state: ["dist", ".astro", "node_modules/.astro"],
  },
  {
    name: "eleventy",
    dir: path.join(ROOT, "examples", "eleventy"),
    page: (lang, slug) => path.join("_site", lang, "events", slug, "index.html"),
    state: ["_site", ".cache"],
  },
];

let proxy: CountingProxy;
beforeAll(async () => {
  proxy = await countingProxy(ORIGIN);
  await Promise.all(EXAMPLES.map((e) => install(e.dir)));
});
afterAll(async () => proxy?.close());

test("the client's generated types are those of this service's /doc (a warning, not a failure)", async () => {
  // Other work changes /doc (global parameters, fixes): a stale copy is reported here, and
  // `npm run codegen -- --from <origin>/en/wp-json/tribe/events/v1` brings it up to date.
  const codegen = path.join(ROOT, "packages", "client", "codegen");
  await run(codegen, "npm", ["ci", "--no-audit", "--no-fund"]);
  const from = `${ORIGIN}/en/wp-json/tribe/events/v1`;
  await run(ROOT, "npx", [
    "tsx",
    path.join(codegen, "generate.ts"),
    "--from",
    from,
    "--check",
  ]).catch((err: Error) =>
    console.warn(`packages/client/src/generated is out of date:\n${err.message}`),
  );
});

describe.each(EXAMPLES)("examples/$name", (example) => {
  test("builds both languages; a rebuild after one change fetches only the change", async () => {
    for (const p of example.state)
      rmSync(path.join(example.dir, p), { recursive: true, force: true });
    const env = { TEC_API: proxy.origin };
    proxy.take();
    await run(example.dir, "npm", ["run", "build"], env);
    const first = proxy.take();

    // The first build asked every list of both languages and built a page per event.
    const lists = byList(first);
    for (const lang of LANGUAGES)
      for (const list of LISTS.slice(0, 5))
        expect(lists.get(`${lang} ${list}`)?.length, `${lang} ${list}`).toBeGreaterThan(0);
    const answer = await fetch(
      `${ORIGIN}/en/wp-json/tribe/events/v1/events?per_page=1&start_date=1970-01-01&end_date=2999-12-31`,
    );
    const [event] = (await answer.json()).events as { id: number; slug: string; title: string }[];
    for (const lang of LANGUAGES)
      expect(
        readFileSync(path.join(example.dir, example.page(lang, event.slug)), "utf8"),
      ).toContain(event.title);

    // One API write, then the rebuild.
    const title = `${event.title} (${example.name} ${Date.now().toString(36)})`;
    await retitle(event.id, title);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    await run(example.dir, "npm", ["run", "build"], env);
    const second = proxy.take();

    const [firstBody, secondBody] = [total(first, "body"), total(second, "body")];
    const [firstWire, secondWire] = [total(first, "wire"), total(second, "wire")];
    console.log(
      `examples/${example.name}: first build ${first.length} requests, ${firstBody} body bytes ` +
        `(${firstWire} on the wire with headers, compressed); second build ${second.length} ` +
        `requests, ${secondBody} body bytes (${secondWire} on the wire): ` +
        `${percent(secondBody, firstBody)} of the first build's bytes ` +
        `(${percent(secondWire, firstWire)} on the wire)`,
    );
    for (const [key, hits] of byList(second)) {
      expect(hits.length, `${key}: ${hits.map((h) => h.url).join(" ")}`).toBeLessThanOrEqual(1);
      expect(key, "only the lists and /deleted").toMatch(
        new RegExp(`^(en|de) (${LISTS.join("|")})$`),
      );
      expect(hits[0].body, `${key} is small`).toBeLessThan(16_384);
    }
    expect(second.length).toBeLessThanOrEqual(LANGUAGES.length * LISTS.length);
    expect(secondBody).toBeLessThan(firstBody * 0.05);
    for (const lang of LANGUAGES)
      expect(
        readFileSync(path.join(example.dir, example.page(lang, event.slug)), "utf8"),
      ).toContain(title);
  });
});
