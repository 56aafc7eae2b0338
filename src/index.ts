/**
 * Worker entry. Settings are parsed once per isolate (per distinct configuration); a bad setting is
 * logged and answered with 500 `rest_setting_invalid` naming the variable, never a wrong answer.
 * Applied here, before routing: WordPress's plain-permalink URLs (`/?rest_route=/…`, tec-reference
 * §1.1, src/http/rest-route.ts) and its method override (`?_method=PUT`, `X-HTTP-Method-Override`
 * on POST, §1.2). Then the reference page's static files by their exact path
 * (src/root/reference/files.ts), the calendar editor (src/editor/, loaded only for its own
 * requests), and every other request through the read cache to the app.
 */
import type { Hono } from "hono";
import { DateTime } from "luxon";
import { createApp } from "./app";
import { EDITOR_ASSETS_PATH, editorRequest } from "./editor/paths";
import { extendSeries } from "./events/series/scheduled";
import type { AppEnv } from "./http/context";
import { fromRestRoute } from "./http/rest-route";
import { loadStrings, text } from "./i18n";
import { serve } from "./read-cache/serve";
import { forgetVersion } from "./read-cache/version";
import { REFERENCE_ASSETS_PATH } from "./root/reference/assets";
import { referenceFile } from "./root/reference/files";
import {
  type Bindings,
  languageWithoutSettings,
  parseSettings,
  type Settings,
  SettingsError,
} from "./settings";
import { handleWebhookBatch } from "./webhooks/consumer";
import type { WebhookMessage } from "./webhooks/messages";

export type { Bindings } from "./settings";

const SETTING_KEYS = [
  "SITE_TIMEZONE",
  "SITE_URL",
  "REST_PREFIX",
  "VENDOR",
  "LANGUAGES",
  "DEFAULT_LANGUAGE",
  "PER_PAGE_DEFAULT",
  "PER_PAGE_MAX",
  "CURRENCY_SYMBOL",
  "CURRENCY_POSITION",
  "CURRENCY_CODE",
  "CORS_WRITE_ORIGINS",
  "CACHE_MAX_AGE",
  "CACHE_STALE_WHILE_REVALIDATE",
  "IMAGE_URL_CHECK",
  "CONTENT_VERSION_TTL_MS",
  "READ_CACHE",
  "ADMIN_APP_PASSWORD",
  "WEBHOOK_SECRET_KEY",
  "WEBHOOK_PRIVATE_TARGETS",
  "WEBHOOK_RETRY_BASE_SECONDS",
] as const;

type Configured = { app: Hono<AppEnv>; settings: Settings } | SettingsError;

let current: { key: string; configured: Configured } | null = null;
/** The app of an `env` object already seen: the platform passes the same object to every request. */
const byEnv = new WeakMap<object, Configured>();

function appFor(env: Bindings): Configured {
  const seen = byEnv.get(env);
  if (seen) return seen;
  const key = SETTING_KEYS.map((k) => env[k] ?? "").join("\u0000");
  if (current?.key !== key) {
    let configured: Configured;
    try {
      const settings = parseSettings(env);
      configured = { app: createApp(settings), settings };
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      console.error(err.message);
      configured = err;
    }
    current = { key, configured };
  }
  byEnv.set(env, current.configured);
  return current.configured;
}

/**
 * The answer to every request while a setting is bad: 500 `rest_setting_invalid`, its message in
 * the language of the path's prefix (`languageWithoutSettings`) with the variable and what is
 * wrong with it (English, as the log says it) in its placeholder.
 */
async function misconfigured(
  request: Request,
  env: Bindings,
  err: SettingsError,
): Promise<Response> {
  const prefix = new URL(request.url).pathname.split("/")[1] ?? "";
  const strings = await loadStrings(env.STRINGS, languageWithoutSettings(env, prefix));
  return Response.json(
    {
      code: "rest_setting_invalid",
      message: text(strings, "messages.rest_setting_invalid", [err.message]),
      data: { status: 500 },
    },
    { status: 500, headers: { "X-Content-Type-Options": "nosniff" } },
  );
}

function overrideMethod(request: Request): Request {
  if (request.method !== "POST") return request;
  const url = new URL(request.url);
  const wanted = (
    request.headers.get("x-http-method-override") ??
    url.searchParams.get("_method") ??
    ""
  ).toUpperCase();
  if (!["PUT", "PATCH", "DELETE"].includes(wanted)) return request;
  return new Request(request, { method: wanted });
}

export default {
  fetch(request: Request, env: Bindings, ctx: ExecutionContext): Response | Promise<Response> {
    const configured = appFor(env);
    if (configured instanceof SettingsError) return misconfigured(request, env, configured);
    const { app, settings } = configured;
    const routed = overrideMethod(fromRestRoute(request, settings));
    // Anonymous GETs and HEADs: from the read cache, or through the app and into it.
    const answer = () => serve(routed, env, ctx, settings, (r) => app.fetch(r, env, ctx));
    // The reference page's static files, by their path only (`referenceFile` matches the pathname;
    // the text test only spares other requests a URL parse). Not through the read cache: constant
    // bytes of the bundle with their own ETag, which a key of content version, settings and strings
    // would only store again per version.
    if (routed.url.includes(REFERENCE_ASSETS_PATH))
      return referenceFile(routed).then((res) => res ?? answer());
    // The calendar editor (contract §7.11): its module and files are loaded by this request only,
    // never by an API request (src/editor/paths.ts picks them by method and path).
    if (
      (routed.url.includes("/wp-admin") || routed.url.includes(EDITOR_ASSETS_PATH)) &&
      editorRequest(settings, routed.method, new URL(routed.url).pathname)
    )
      return import("./editor/serve")
        .then((editor) => editor.serveEditor(routed, env.STRINGS, settings))
        .then((res) => res ?? answer());
    return answer();
  },
  /** Webhook deliveries (contract §7.5): the consumer of `WEBHOOK_QUEUE`. */
  queue(batch: MessageBatch<WebhookMessage>, env: Bindings): Promise<void> {
    return handleWebhookBatch(batch, env);
  },
  /**
   * The Cron Trigger (`[triggers] crons`, wrangler.toml): recurring series keep their occurrences
   * materialized two years ahead (contract §7.8, src/events/series/scheduled.ts).
   */
  async scheduled(controller: ScheduledController, env: Bindings): Promise<void> {
    const report = await extendSeries(env.DB, DateTime.fromMillis(controller.scheduledTime));
    // This isolate's next anonymous answer reflects the new occurrences at once, as after a write.
    if (report.series) forgetVersion();
    console.log(
      `series: ${report.series} extended by ${report.occurrences} occurrences, ${report.skipped} left for the next run`,
    );
  },
} satisfies ExportedHandler<Bindings, WebhookMessage>;
