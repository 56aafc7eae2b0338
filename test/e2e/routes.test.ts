/**
 * Every route and method the running service lists in its own REST index (`GET /wp-json/`, every
 * route of `tribe/events/v1` and `wp/v2` with its methods, contract §7), so a new route is covered
 * as soon as it is listed: each route × method is sent once anonymously and once as the
 * administrator, path parameters filled with real ids and slugs of fixtures made here through the
 * API (a fresh set for each DELETE). No answer may be a 5xx, and every 4xx carries the WordPress
 * error envelope `{code, message, data: {status}}` (tec-reference §10.1). The administrator's
 * requests succeed (2xx) wherever the suite knows the route's parameters and body; a route it does
 * not know yet is still sent, with made-up parameters and an empty body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  type Answer,
  type Credentials,
  expectSound,
  futureDate,
  get,
  NS,
  send,
  show,
  uniqueWord,
  WP,
} from "./support/http";
import { createUser } from "./support/people";

const WORD = uniqueWord("e2eroute");
let serial = 0;
/** A new number for names that must not repeat (terms, users). */
const next = () => ++serial;

/** One method of one route of the index, e.g. `DELETE /tribe/events/v1/events/(?P<id>\d+)`. */
interface Endpoint {
  route: string;
  method: string;
}

/** A webhook receiver on this machine that accepts every delivery (`.dev.vars` allows it). */
let receiver: http.Server;
let receiverUrl = "";
let adminName = "";
let endpoints: Endpoint[] = [];

/** Fixtures made on first use, each through the API as the administrator. */
class Fixtures {
  private made = new Map<string, Promise<any>>();

  private once<T>(key: string, make: () => Promise<T>): Promise<T> {
    if (!this.made.has(key)) this.made.set(key, make());
    return this.made.get(key)!;
  }

  private static async create(path: string, json: unknown): Promise<any> {
    const answer = await send("POST", path, { auth: ADMIN, json });
    expect(answer.status, show(answer)).toBe(201);
    return answer.body;
  }

  /** Post ids and slugs of `events`, `venues`, `organizers`; term and other ids by collection. */
  post(collection: string): Promise<{ id: number; slug?: string }> {
    return this.once(collection, () => {
      const n = next();
      switch (collection) {
        case "events":
          return Fixtures.create(`${NS}/events`, {
            title: `${WORD} event ${n}`,
            start_date: futureDate(50),
            end_date: futureDate(50, 12),
          });
        case "venues":
          return Fixtures.create(`${NS}/venues`, { venue: `${WORD} venue ${n}` });
        case "organizers":
          return Fixtures.create(`${NS}/organizers`, { organizer: `${WORD} organizer ${n}` });
        case "categories":
        case "tags":
          return Fixtures.create(`${NS}/${collection}`, { name: `${WORD} term ${n}` });
        case "webhooks":
          return Fixtures.create(`${NS}/webhooks`, { url: receiverUrl, events: ["*"] });
        case "media":
          return Fixtures.create(`${WP}/media`, {
            source_url: `https://example.com/${WORD}-${n}.jpg`,
          });
        case "users":
          return createUser("subscriber", `${WORD}-user-${n}`);
        // The read-only wp/v2 routes of what the tribe routes make (contract §3).
        case "tribe_events":
          return this.post("events");
        case "tribe_events_cat":
          return this.post("categories");
        case "types":
          return Promise.resolve({ id: "tribe_events" as never });
        case "taxonomies":
          return Promise.resolve({ id: "tribe_events_cat" as never });
        default:
          throw new Error(`no fixture for ${collection}`);
      }
    });
  }

  /** An application password of the fixture user (`me`: of the administrator). */
  async applicationPassword(owner: "me" | number): Promise<string> {
    return this.once(`app-${owner}`, async () => {
      const made = await Fixtures.create(`${WP}/users/${owner}/application-passwords`, {
        name: `${WORD} ${next()}`,
      });
      return made.uuid;
    });
  }
}

/** A path parameter of a WordPress route regex: `(?P<name>pattern)`. */
const PARAM = /\(\?P<(\w+)>([^)]*)\)/;

/** The literal path segments of a route (parameters and `by-slug` left out). */
const literals = (route: string) =>
  route
    .replace(new RegExp(PARAM.source, "g"), "")
    .split("/")
    .filter((part) => part && part !== "by-slug");

/**
 * The route's URL with each parameter filled from `fixtures`: an `id` after a collection by that
 * collection's fixture, a `slug` by its slug, a `uuid` by an application password of the user in
 * the path. A parameter no fixture knows gets `1` (digits) or a made-up slug, so that a new route
 * is still requested; `known` is false then.
 */
async function fill(route: string, fixtures: Fixtures): Promise<{ url: string; known: boolean }> {
  let known = true;
  let url = "";
  let rest = route;
  let owner: "me" | number = "me";
  for (;;) {
    const match = PARAM.exec(rest);
    if (!match) break;
    const before = rest.slice(0, match.index);
    url += before;
    const segments = url.split("/").filter((part) => part && part !== "by-slug");
    const collection = segments.at(-1) ?? "";
    const [name, pattern] = [match[1], match[2]];
    let value: string;
    try {
      if (name === "uuid") value = await fixtures.applicationPassword(owner);
      else {
        const made = await fixtures.post(collection);
        value = name === "slug" ? String(made.slug) : String(made.id);
        if (collection === "users") owner = made.id;
      }
    } catch (err) {
      if (!(err instanceof Error && err.message.startsWith("no fixture"))) throw err;
      value = pattern.includes("\\d") ? "1" : `${WORD}-unknown`;
      known = false;
    }
    url += value;
    rest = rest.slice(match.index + match[0].length);
  }
  return { url: `/wp-json${url}${rest}`, known };
}

/**
 * A body for a write to the route: what its resource takes, with fresh names; `undefined` for a
 * resource this suite does not know.
 */
function bodyFor(route: string): Record<string, unknown> | undefined {
  const parts = literals(route);
  const resource = parts.at(-1) ?? "";
  const n = next();
  switch (resource) {
    case "events":
      return {
        title: `${WORD} probe ${n}`,
        start_date: futureDate(60),
        end_date: futureDate(60, 12),
      };
    case "venues":
      return { venue: `${WORD} probe venue ${n}` };
    case "organizers":
      return { organizer: `${WORD} probe organizer ${n}` };
    case "categories":
    case "tags":
      return { name: `${WORD} probe term ${n}` };
    case "webhooks":
      return { url: receiverUrl, events: ["*"] };
    case "ping":
      return {};
    case "media":
      return { source_url: `https://example.com/${WORD}-probe-${n}.jpg` };
    case "application-passwords":
      return { name: `${WORD} probe ${n}` };
    case "me":
      return { name: adminName };
    case "users":
      // The collection creates a user; a user's own route changes its name.
      return /\(\?P<id>/.test(route)
        ? { name: `${WORD} probe ${n}` }
        : {
            username: `${WORD}-probe-${n}`,
            email: `${WORD}-probe-${n}@example.com`,
            password: `pw-${WORD}-0123456789`,
            roles: ["subscriber"],
          };
    default:
      return undefined;
  }
}

/** The query a GET of the route needs: the preview of unsaved lines takes a write's (contract §7.8). */
function queryFor(route: string): string {
  if (!route.endsWith("/recurrence")) return "";
  const q = new URLSearchParams({ start_date: futureDate(60) });
  q.append("recurrence[]", "RRULE:FREQ=WEEKLY;COUNT=3");
  return `?${q}`;
}

/**
 * Sends the endpoint anonymously and as the administrator: both answers, and whether the suite
 * knows the route's parameters and body.
 */
async function probe(
  endpoint: Endpoint,
  fixtures: Fixtures,
): Promise<{ anonymous: Answer; admin: Answer; known: boolean }> {
  const { url, known } = await fill(endpoint.route, fixtures);
  const writes = ["POST", "PUT", "PATCH"].includes(endpoint.method);
  // DELETE removes for good (posts: force; users: their posts go to user 1).
  const query = endpoint.method === "DELETE" ? "?force=true&reassign=1" : queryFor(endpoint.route);
  const answers: Answer[] = [];
  for (const auth of [null, ADMIN] as Credentials[]) {
    const json = writes ? (bodyFor(endpoint.route) ?? {}) : undefined;
    answers.push(await send(endpoint.method, `${url}${query}`, { auth, json }));
  }
  const bodyKnown = !writes || bodyFor(endpoint.route) !== undefined;
  return { anonymous: answers[0], admin: answers[1], known: known && bodyKnown };
}

/** The administrator's request succeeded: a 2xx. */
function expectSuccess(answer: Answer): void {
  expect.soft(answer.status, `administrator: ${show(answer)}`).toBeGreaterThanOrEqual(200);
  expect.soft(answer.status, `administrator: ${show(answer)}`).toBeLessThan(300);
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  adminName = (await get(`${WP}/users/me`, ADMIN)).body.name;

  const index = await get("/wp-json/");
  expect(index.status, show(index)).toBe(200);
  const routes = index.body.routes as Record<string, { endpoints: Array<{ methods: string[] }> }>;
  endpoints = Object.entries(routes).flatMap(([route, described]) =>
    [...new Set(described.endpoints.flatMap((e) => e.methods))].map((method) => ({
      route,
      method,
    })),
  );
});

afterAll(async () => {
  // The webhooks made here would keep delivering to a closed port: remove them.
  const hooks = await get(`${NS}/webhooks?per_page=50`, ADMIN);
  for (const hook of hooks.body?.webhooks ?? [])
    if (hook.url === receiverUrl)
      await send("DELETE", `${NS}/webhooks/${hook.id}`, { auth: ADMIN });
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe("every route × method of the REST index (contract §7, tec-reference §1.2, §10.1)", () => {
  it("lists both namespaces with their routes", () => {
    const routes = new Set(endpoints.map((e) => e.route));
    for (const route of [
      "/tribe/events/v1/events",
      "/tribe/events/v1/events/(?P<id>\\d+)",
      "/tribe/events/v1/venues/by-slug/(?P<slug>[^/]+)",
      "/tribe/events/v1/tags/(?P<id>\\d+)",
      "/wp/v2/users",
      "/wp/v2/users/(?P<id>\\d+)/application-passwords",
    ])
      expect(routes).toContain(route);
    expect(endpoints.length).toBeGreaterThan(50);
  });

  it("answers every GET, POST, PUT and PATCH without 5xx, errors in the envelope", async () => {
    const fixtures = new Fixtures();
    const sent: string[] = [];
    for (const endpoint of endpoints.filter((e) => e.method !== "DELETE")) {
      const { anonymous, admin, known } = await probe(endpoint, fixtures);
      for (const answer of [anonymous, admin]) expectSound(answer);
      if (known) expectSuccess(admin);
      else console.warn(`e2e: ${endpoint.method} ${endpoint.route} sent with made-up input`);
      sent.push(`${endpoint.method} ${endpoint.route}`);
    }
    expect(sent.length).toBeGreaterThan(40);
  });

  it("answers every DELETE without 5xx, each on fixtures of its own", async () => {
    const deletes = endpoints.filter((e) => e.method === "DELETE");
    expect(deletes.length).toBeGreaterThan(5);
    for (const endpoint of deletes) {
      const { anonymous, admin, known } = await probe(endpoint, new Fixtures());
      for (const answer of [anonymous, admin]) expectSound(answer);
      expect.soft(anonymous.status, show(anonymous)).toBe(401);
      if (known) expectSuccess(admin);
    }
  });
});
