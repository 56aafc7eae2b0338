/**
 * The worker's Hono application (contract §1): the WordPress REST index, the `tribe/events/v1`
 * namespace and the `wp/v2` subset under every language prefix (`/en/wp-json/...`,
 * `/de/wp-json/...`) and unprefixed for the default language, and the site pages WordPress clients
 * open (src/root/site-pages.ts); one error path; the headers of §12.2 and contract §6 on every
 * response.
 */
import { Hono } from "hono";
import { openDb } from "./db/client";
import { renderAfterWrite } from "./events/rendering/store";
import { eventRoutes } from "./events/routes";
import { wpEventRoutes } from "./events/wp";
import { allow } from "./http/allow";
import { authenticateLimited, isRestPath, readCredentials } from "./http/auth";
import { type AppContext, type AppEnv, executionContext } from "./http/context";
import { answerOf, errorBody } from "./http/error-response";
import { ApiError, noRoute } from "./http/errors";
import { applyGlobalParams } from "./http/global-params";
import { applyResponseHeaders, checkWriteOrigin } from "./http/headers";
import { MemoRouter } from "./http/memo-router";
import { MAX_QUERY_CHARS } from "./http/params";
import { mountGroup, type Permit, type RouteGroup } from "./http/registry";
import { buildUrls, languageOf, namespaceOf } from "./http/urls";
import { loadStrings } from "./i18n";
import { icalRoutes } from "./ical/routes";
import { organizerRoutes, venueRoutes } from "./linked-posts/routes";
import { mediaRoutes } from "./media/routes";
import { kept } from "./read-cache/kept";
import { ticketOf } from "./read-cache/serve";
import { forgetVersion, readContentVersion } from "./read-cache/version";
import { type DescribedGroup, routeOptions } from "./root/namespace-index";
import { namespaceIndexRoute, restIndexGroup, rootRoutes } from "./root/routes";
import { sitePages } from "./root/site-pages";
import { wpTypeRoutes } from "./root/wp-types";
import type { Settings } from "./settings";
import { syncRoutes } from "./sync/routes";
import { categoryRoutes, tagRoutes } from "./terms/routes";
import { wpTermRoutes } from "./terms/wp";
import { allowUser, type UserRule } from "./users/access";
import { authorizeApplicationRoutes } from "./users/authorize-application";
import { cookieUser, refreshNonce } from "./users/cookie-auth";
import { userRoutes } from "./users/routes";
import { signInRoutes } from "./users/sign-in-routes";
import { dispatchAfterWrite } from "./webhooks/after-write";
import { webhookRoutes } from "./webhooks/routes";

/**
 * The tribe/events/v1 routes, relative to the namespace root, in TEC's registration order (§1.2):
 * the index and `/doc`, events, venues, organizers, categories, tags. The index, `OPTIONS` and `/doc`
 * are rendered from this table.
 */
export function namespaceGroup(settings: Settings): RouteGroup<Permit> {
  const group: RouteGroup<Permit> = { namespace: namespaceOf, allow, routes: [] };
  group.routes.push(
    ...rootRoutes(group, namespaceOf(settings)),
    ...icalRoutes(),
    ...eventRoutes(),
    ...venueRoutes(),
    ...organizerRoutes(),
    ...categoryRoutes(),
    ...tagRoutes(),
    ...syncRoutes(),
    ...webhookRoutes(),
  );
  return group;
}

/** The tribe/events/v1 namespace as a Hono sub-app. */
export function namespaceApp(settings: Settings): Hono<AppEnv> {
  return mountGroup(namespaceGroup(settings), routeOptions);
}

/** The wp/v2 subset of contract §3 as route groups, in WordPress's order; users check permissions their own way. */
export interface WpGroups {
  /** The namespace index `GET /wp-json/wp/v2` (WordPress `get_namespace_index`). */
  index: RouteGroup<Permit>;
  media: RouteGroup<Permit>;
  /** The read-only posts, post types, taxonomies and terms that `_links` name. */
  reads: RouteGroup<Permit>;
  users: RouteGroup<UserRule>;
}

/** The wp/v2 groups; `list` in registration order, for the indexes. */
export function wpGroups(): WpGroups & { list: DescribedGroup[] } {
  const namespace = () => "wp/v2";
  const media: RouteGroup<Permit> = { namespace, allow, routes: mediaRoutes() };
  const reads: RouteGroup<Permit> = {
    namespace,
    allow,
    // WordPress registers post types (core's, then TEC's), post types and taxonomies, then terms.
    routes: [...wpEventRoutes(), ...wpTypeRoutes(), ...wpTermRoutes()],
  };
  const users: RouteGroup<UserRule> = { namespace, allow: allowUser, routes: userRoutes() };
  const list: DescribedGroup[] = [];
  const index: RouteGroup<Permit> = {
    namespace,
    allow,
    routes: [namespaceIndexRoute(() => list, "wp/v2")],
  };
  list.push(index, media, reads, users);
  return { index, media, reads, users, list };
}

/** The wp/v2 subset of contract §3 as a Hono sub-app (`OPTIONS` describes every route). */
export function wpApp(groups: WpGroups = wpGroups()): Hono<AppEnv> {
  const wp = new Hono<AppEnv>({ strict: false });
  wp.route("/", mountGroup(groups.index, routeOptions));
  wp.route("/", mountGroup(groups.users, routeOptions));
  wp.route("/", mountGroup(groups.media, routeOptions));
  wp.route("/", mountGroup(groups.reads, routeOptions));
  return wp;
}

async function renderError(c: AppContext, err: unknown): Promise<Response> {
  const { status, body } = errorBody(
    err,
    await loadStrings(c.env.STRINGS, c.get("lang") ?? c.get("settings")?.defaultLanguage ?? "en"),
  );
  // Deliberate errors (ApiError, and the lower layers' errors answerOf maps to one) are answers;
  // anything else is a fault worth a log line.
  if (!(answerOf(err) instanceof ApiError))
    console.error("request failed", c.req.method, new URL(c.req.url).pathname, err);
  const res = c.json(body, status as 400);
  // 429 tells the client when to come back (contract §3).
  if (typeof body.data.retry_after === "number")
    res.headers.set("Retry-After", String(body.data.retry_after));
  return res;
}

/**
 * Builds the application for one set of settings (the worker keeps one per isolate).
 * @example createApp(parseSettings(env)).fetch(request, env, ctx)
 */
export function createApp(settings: Settings): Hono<AppEnv> {
  // Routes are matched once per method and path (the trie was ~7% of a request).
  const app = new Hono<AppEnv>({ strict: false, router: new MemoRouter() });

  app.use("*", async (c, next) => {
    // Set by the read cache for anonymous GETs and HEADs (src/read-cache/serve.ts).
    const ticket = ticketOf(c.req.raw);
    c.set("settings", settings);
    c.set("nowMs", Date.now());
    const url = new URL(c.req.url);
    c.set("url", url);
    if (ticket) {
      c.set("lang", ticket.shape.lang);
      c.set("urls", ticket.shape.urls);
    } else {
      const where = languageOf(settings, url.pathname);
      c.set("lang", where?.lang ?? settings.defaultLanguage);
      c.set("urls", buildUrls(settings, url.origin, where?.prefix ?? ""));
    }
    c.set("user", null);
    // What the read cache keeps for handlers, with caches on (src/read-cache/kept.ts).
    if (settings.readCache) c.set("kept", kept);
    if (ticket) {
      c.set("query", ticket.shape.query);
      c.set("readCache", ticket.cached);
      c.set("expectedVersion", ticket.expected);
    }
    try {
      if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
        // CORS preflight: answered here; the headers below say what the origin may do.
        c.res = c.body(null, 204);
        applyResponseHeaders(c);
        return;
      }
      // Every route, whether or not its handler reads parameters (414 beyond the bound).
      if (url.search.length > MAX_QUERY_CHARS)
        throw new ApiError(414, "rest_uri_too_long", [MAX_QUERY_CHARS]);
      checkWriteOrigin(c);
      const write = !["GET", "HEAD", "OPTIONS"].includes(c.req.method);
      const rdb = openDb(c.env.DB, { write, bookmark: c.req.header("x-d1-bookmark") });
      c.set("rdb", rdb);
      // Authorization wins; without it, a session cookie with a nonce on REST paths (contract §3.1).
      const credentials = readCredentials(c.req.header("authorization"));
      if (credentials) c.set("user", await authenticateLimited(c, credentials));
      else if (isRestPath(url.pathname, settings.restPrefix, settings.languages))
        c.set("user", await cookieUser(c));
      if (ticket) {
        // The answer's key needs the content version its data was read at: the first batch reads
        // it in the same round trip; a route that read nothing with a batch reads it alone.
        rdb.carryVersion();
        await next();
        ticket.version = rdb.versionRead();
        if (ticket.version === undefined && c.res.status === 200)
          ticket.version = await readContentVersion(rdb.db);
      } else {
        await next();
        if (write && c.res.status < 400) {
          // This isolate's next anonymous answer reflects its own write at once.
          forgetVersion();
          // What the write committed goes to the webhooks, after the answer.
          dispatchAfterWrite(c);
          // Events whose rendering it made stale are rendered again, after the answer.
          renderAfterWrite(c);
        }
      }
    } catch (err) {
      c.res = await renderError(c, err);
    }
    // `_fields`, `_embed`, `_envelope` reshape whatever the route answered (contract §7.7).
    try {
      await applyGlobalParams(c, (r) => app.fetch(r, c.env, executionContext(c)));
    } catch (err) {
      c.res = await renderError(c, err);
    }
    if (ticket) ticket.body = c.get("body");
    await refreshNonce(c);
    applyResponseHeaders(c);
  });

  const tribe = namespaceGroup(settings);
  const ns = mountGroup(tribe, routeOptions);
  const wpv2 = wpGroups();
  const wp = wpApp(wpv2);
  // The REST index `/wp-json/` lists every route of both namespaces.
  const index = mountGroup(
    restIndexGroup(() => [tribe, ...wpv2.list]),
    routeOptions,
  );
  const site = sitePages();
  const signIn = signInRoutes();
  const authorize = authorizeApplicationRoutes();
  const bases = ["", ...settings.languages.map((l) => `/${l}`)];
  for (const base of bases) {
    app.route(`${base}/${settings.restPrefix}`, index);
    app.route(`${base}/${settings.restPrefix}/${namespaceOf(settings)}`, ns);
    app.route(`${base}/${settings.restPrefix}/wp/v2`, wp);
    app.route(base || "/", site);
    app.route(base || "/", signIn);
    app.route(base || "/", authorize);
  }

  app.notFound((c) => renderError(c, noRoute()));
  app.onError((err, c) => renderError(c, err));
  return app;
}
