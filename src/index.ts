/**
 * Worker entry. Settings are parsed once per isolate (per distinct configuration); a bad setting is
 * logged and answered with 500 `rest_setting_invalid` naming the variable, never a wrong answer.
 * WordPress's method override (`?_method=PUT`, `X-HTTP-Method-Override` on POST) is applied here,
 * before routing (tec-reference §1.2).
 */
import type { Hono } from "hono";
import { createApp } from "./app";
import type { AppEnv } from "./http/context";
import { type Bindings, parseSettings, SettingsError } from "./settings";
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
  "CONTENT_VERSION_TTL_MS",
  "ADMIN_APP_PASSWORD",
  "WEBHOOK_SECRET_KEY",
  "WEBHOOK_PRIVATE_TARGETS",
  "WEBHOOK_RETRY_BASE_SECONDS",
] as const;

let current: { key: string; app: Hono<AppEnv> | SettingsError } | null = null;

function appFor(env: Bindings): Hono<AppEnv> | SettingsError {
  const key = SETTING_KEYS.map((k) => env[k] ?? "").join("\u0000");
  if (current?.key !== key) {
    let app: Hono<AppEnv> | SettingsError;
    try {
      app = createApp(parseSettings(env));
    } catch (err) {
      if (!(err instanceof SettingsError)) throw err;
      console.error(err.message);
      app = err;
    }
    current = { key, app };
  }
  return current.app;
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
    const app = appFor(env);
    if (app instanceof SettingsError) {
      return Response.json(
        {
          code: "rest_setting_invalid",
          message: `The service is misconfigured: ${app.message}`,
          data: { status: 500 },
        },
        { status: 500, headers: { "X-Content-Type-Options": "nosniff" } },
      );
    }
    return app.fetch(overrideMethod(request), env, ctx);
  },
  /** Webhook deliveries (issue 18): the consumer of `WEBHOOK_QUEUE`. */
  queue(batch: MessageBatch<WebhookMessage>, env: Bindings): Promise<void> {
    return handleWebhookBatch(batch, env);
  },
} satisfies ExportedHandler<Bindings, WebhookMessage>;
