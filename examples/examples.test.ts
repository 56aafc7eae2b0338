/**
 * `npm run test:examples`: the packages as a site outside the repository gets them, and the example
 * sites (examples/astro, examples/eleventy) built with them against `npm start`
 * (test/e2e/global-setup.ts starts it on a free port with a temporary `--persist-to`), through a
 * counting proxy (contract §7.10).
 *
 * The three packages are packed (`npm run pack:packages`: checked, built, `npm publish --dry-run`
 * clean) into a temporary folder outside the repository; each example is copied there, the
 * tarballs beside its package.json, and installed with the command of its package's README
 * (`npm install ./tec-edge-client-….tgz ./tec-edge-astro-loader-….tgz`, `--engine-strict`), the
 * rest from the registry through the example's lockfile; nothing may link back into the
 * repository. The Astro site builds on the repository's Node 22 (Astro needs ≥ 22.12), the
 * Eleventy site on the machine's Node (the first `node` on `PATH` outside the repository: 20 in
 * CI). Each site is built, one event is changed through the API, and the site is built again: the
 * second build must ask each list of each language at most once (plus `/deleted`), each answer
 * small, less than 5% of the first build's bytes, and show the change on both languages' pages.
 * The counts are printed. Then the client and the Eleventy helper sync on the lowest Node their
 * `engines` allow, and the client's generated types must be those of this service's `/doc`.
 * `TEC_EXAMPLES_KEEP=1` keeps the temporary folder (its path is printed).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { type Packed, packPackages } from "../scripts/lib/pack";
import { readWorkspace } from "../scripts/lib/packages";
import {
  copyExample,
  engineFloor,
  inside,
  installNode,
  outsideEnv,
  REPOSITORY_NODE,
  readmeInstall,
  run,
  tiesToRepository,
} from "./support/outside";
import { type CountingProxy, countingProxy, type Hit } from "./support/proxy";

const ROOT = path.resolve(import.meta.dirname, "..");
const ORIGIN = inject("e2eOrigin");
const PASSWORD = inject("e2eAdminPassword");
const TTL_MS = inject("e2eContentVersionTtlMs");
const LANGUAGES = ["en", "de"] as const;
const LISTS = ["events", "venues", "organizers", "categories", "tags", "deleted"] as const;

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
  /** The folder in packages/ whose README's install command the site runs. */
  uses: "astro-loader" | "eleventy";
  /** The folder of the Node that installs and builds it; the machine's when undefined. */
  node?: string;
  /** Where the built page of an event is. */
  page: (lang: string, slug: string) => string;
}

const EXAMPLES: Example[] = [
  {
    name: "astro",
    uses: "astro-loader",
    node: REPOSITORY_NODE,
    page: (lang, slug) => path.join("dist", lang, "events", slug, "index.html"),
  },
  {
    name: "eleventy",
    uses: "eleventy",
    page: (lang, slug) => path.join("_site", lang, "events", slug, "index.html"),
  },
];

let proxy: CountingProxy;
/** The temporary folder outside the repository: the tarballs, the sites, other Nodes. */
let outside: string;
let packed: Packed[];
/** Each example's site folder, installed. */
const sites = new Map<string, string>();

/** Copies an example beside the tarballs and installs it as its package's README says. */
async function installSite(example: Example): Promise<string> {
  const site = copyExample(example.name, outside);
  const tarballs = readmeInstall(example.uses);
  for (const t of tarballs) copyFileSync(path.join(outside, "tarballs", t), path.join(site, t));
  const env = outsideEnv(example.node);
  const args = ["install", ...tarballs, "--engine-strict", "--no-audit", "--no-fund"];
  await run(site, "npm", args, env);
  const node = (await run(site, "node", ["--version"], env)).trim();
  console.log(
    `examples/${example.name}: installed in ${site} (npm ${args.join(" ")}), Node ${node}`,
  );
  return site;
}

beforeAll(async () => {
  proxy = await countingProxy(ORIGIN);
  outside = mkdtempSync(path.join(tmpdir(), "tec-outside-"));
  expect(inside(ROOT, outside), "the temporary folder is outside the repository").toBe(false);
  packed = await packPackages(path.join(outside, "tarballs"));
  await Promise.all(EXAMPLES.map(async (e) => sites.set(e.name, await installSite(e))));
});
afterAll(async () => {
  await proxy?.close();
  if (process.env.TEC_EXAMPLES_KEEP) console.log(`kept ${outside}`);
  else if (outside) rmSync(outside, { recursive: true, force: true });
});

describe.each(EXAMPLES)("examples/$name, outside the repository", (example) => {
  test("its packages come from the tarballs, nothing links back into the repository", () => {
    const site = sites.get(example.name)!;
    const names = packed
      .filter((p) => p.name === "@tec-edge/client" || p.name.endsWith(example.uses))
      .map((p) => p.name);
    expect(names).toHaveLength(2);
    expect(tiesToRepository(site, names)).toEqual([]);
  });

  test("builds both languages; a rebuild after one change fetches only the change", async () => {
    const site = sites.get(example.name)!;
    const env = { ...outsideEnv(example.node), TEC_API: proxy.origin };
    proxy.take();
    await run(site, "npm", ["run", "build"], env);
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
      expect(readFileSync(path.join(site, example.page(lang, event.slug)), "utf8")).toContain(
        event.title,
      );

    // One API write, then the rebuild.
    const title = `${event.title} (${example.name} ${Date.now().toString(36)})`;
    await retitle(event.id, title);
    await new Promise((resolve) => setTimeout(resolve, TTL_MS + 100));
    await run(site, "npm", ["run", "build"], env);
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
      expect(readFileSync(path.join(site, example.page(lang, event.slug)), "utf8")).toContain(
        title,
      );
  });
});

/** `a` ≥ `b` for versions `X.Y.Z`. */
const atLeast = (a: string, b: string) => {
  const [x, y] = [a, b].map((v) => v.split(".").map(Number));
  const i = x.findIndex((n, k) => n !== y[k]);
  return i < 0 || x[i] > y[i];
};

test("the Astro loader asks for at least the Node that Astro itself needs", () => {
  const astro = JSON.parse(
    readFileSync(path.join(sites.get("astro")!, "node_modules", "astro", "package.json"), "utf8"),
  );
  const loader = readWorkspace().packages.find((p) => p.dir === "astro-loader")!.manifest;
  const [needs, asks] = [engineFloor(astro.engines.node), engineFloor(loader.engines?.node ?? "")];
  expect(
    atLeast(asks, needs),
    `Astro ${astro.version} needs Node ${needs}, the loader asks ${asks}`,
  ).toBe(true);
});

/** Run in the Eleventy site on another Node: a sync twice, and a webhook signed and verified. */
const FLOOR_CHECK = `
import { verifyWebhook } from "@tec-edge/client";
import { tecData } from "@tec-edge/eleventy";
import { Webhook } from "standardwebhooks";
const baseUrl = process.argv[2];
const first = await tecData({ baseUrl, cacheDir: ".cache/floor", log: false });
const again = await tecData({ baseUrl, cacheDir: ".cache/floor", log: false });
const secret = "whsec_" + Buffer.from("a secret of thirty-two bytes ...").toString("base64");
const body = JSON.stringify({ type: "ping", timestamp: new Date().toISOString(), data: {} });
const at = new Date();
const signature = new Webhook(secret).sign("msg_1", at, body);
const delivery = verifyWebhook(secret, body, { "webhook-id": "msg_1",
  "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signature });
console.log(JSON.stringify({ node: process.version, events: first.events.length,
  firstSync: first.first, secondSync: again.first, again: again.events.length, type: delivery.type }));
`;

test("the client and the Eleventy helper run on the lowest Node their engines allow", async () => {
  const ranges = readWorkspace()
    .packages.filter((p) => p.dir === "client" || p.dir === "eleventy")
    .map((p) => p.manifest.engines?.node ?? "(none)");
  const floors = [...new Set(ranges.map(engineFloor))];
  expect(floors, "the helper needs no more than the client").toHaveLength(1);
  const node = await installNode(floors[0], outside);
  const site = sites.get("eleventy")!;
  writeFileSync(path.join(site, "floor-check.mjs"), FLOOR_CHECK);
  const out = await run(
    site,
    path.join(node, "node"),
    ["floor-check.mjs", `${ORIGIN}/en/wp-json/tribe/events/v1`],
    outsideEnv(node),
  );
  const result = JSON.parse(out.trim().split("\n").at(-1)!);
  console.log(
    `the client and the Eleventy helper on Node ${result.node}: ${JSON.stringify(result)}`,
  );
  expect(result).toMatchObject({
    node: `v${floors[0]}`,
    firstSync: true,
    secondSync: false,
    type: "ping",
  });
  expect(result.events).toBeGreaterThan(0);
  expect(result.again).toBe(result.events);
});

test("the client's generated types are those of this service's /doc", async () => {
  // Other work changes /doc (global parameters, fixes); a stale copy would type the client wrongly.
  const codegen = path.join(ROOT, "packages", "client", "codegen");
  await run(codegen, "npm", ["ci", "--no-audit", "--no-fund"], process.env);
  const from = `${ORIGIN}/en/wp-json/tribe/events/v1`;
  const check = ["tsx", path.join(codegen, "generate.ts"), "--from", from, "--check"];
  await run(ROOT, "npx", check, process.env).catch((err: Error) => {
    throw new Error(
      `packages/client/src/generated is out of date with this service's /doc. With npm start ` +
        `running, regenerate it and commit the result:\n  npm run codegen -- --from ` +
        `http://127.0.0.1:8787/en/wp-json/tribe/events/v1\n${err.message}`,
    );
  });
});
