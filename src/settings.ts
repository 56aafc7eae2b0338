/**
 * Site settings (contract §1), read from wrangler `[vars]` and secrets, validated once per isolate.
 *
 * A bad value is a configuration error, not a wrong answer later: `parseSettings` throws a
 * `SettingsError` naming the variable, the worker logs it and answers every request with it until the
 * configuration is fixed, and `npm start` refuses to start with the same message.
 */
import * as v from "valibot";
import { resolveZone } from "./time/zone";

/** Raw environment bindings as wrangler provides them. */
export interface Bindings {
  DB: D1Database;
  STRINGS: KVNamespace;
  /** Workers rate limiting binding for failed authentication (optional: an in-isolate window is the fallback). */
  AUTH_FAILURES?: RateLimit;
  SITE_TIMEZONE?: string;
  SITE_URL?: string;
  REST_PREFIX?: string;
  VENDOR?: string;
  LANGUAGES?: string;
  DEFAULT_LANGUAGE?: string;
  PER_PAGE_DEFAULT?: string;
  PER_PAGE_MAX?: string;
  CURRENCY_SYMBOL?: string;
  CURRENCY_POSITION?: string;
  CURRENCY_CODE?: string;
  CORS_WRITE_ORIGINS?: string;
  CACHE_MAX_AGE?: string;
  CACHE_STALE_WHILE_REVALIDATE?: string;
  IMAGE_URL_CHECK?: string;
  CONTENT_VERSION_TTL_MS?: string;
  READ_CACHE?: string;
  /** The Workers version metadata binding: its `id` names the deployment (src/read-cache/key.ts). */
  CF_VERSION_METADATA?: { id: string; tag?: string; timestamp?: string };
  /** Secret: the application password of user 1, `admin`. */
  ADMIN_APP_PASSWORD?: string;
  /** The queue of webhook deliveries (wrangler.toml `[[queues.producers]]`). */
  WEBHOOK_QUEUE?: Queue;
  /** Secret: the key that encrypts webhook signing secrets at rest (src/webhooks/secret.ts). */
  WEBHOOK_SECRET_KEY?: string;
  /** `allow` lets webhooks target private, loopback and reserved addresses (`npm start` sets it locally). */
  WEBHOOK_PRIVATE_TARGETS?: string;
  /** Seconds before the first retry of a failed delivery; each further retry waits twice as long. */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
}

export interface Settings {
  /** IANA name or `UTC±H[:MM]`, validated. */
  siteTimezone: string;
  /** Base of public links without trailing slash; `""` = the request origin plus its language prefix. */
  siteUrl: string;
  restPrefix: string;
  vendor: string;
  /** Language codes served under `/{lang}/`, first = as configured. */
  languages: string[];
  defaultLanguage: string;
  perPageDefault: number;
  perPageMax: number;
  currencySymbol: string;
  currencyPosition: "prefix" | "postfix";
  currencyCode: string;
  /** Origins allowed to write cross-origin; empty = any. */
  corsWriteOrigins: string[];
  /** Seconds. */
  cacheMaxAge: number;
  /** Seconds. */
  cacheStaleWhileRevalidate: number;
  /**
   * How an image URL that is not in the media library yet is checked: `head`, TEC's
   * `HEAD` request (the default); `off`, by its file extension only (local development offline).
   */
  imageUrlCheck: "head" | "off";
  /**
   * Milliseconds an isolate answers anonymous cache hits and 304s with the content version it read
   * last, before reading it again: the staleness bound of those answers.
   */
  contentVersionTtlMs: number;
  /**
   * Whether anonymous answers are kept and served from the read cache and stored renderings are
   * read (`READ_CACHE=on`, the default); `off` answers everything by the full path (the
   * differential test's reference; docs: caching).
   */
  readCache: boolean;
  adminAppPassword: string;
  /** Whether webhooks may target private, loopback and reserved addresses (`WEBHOOK_PRIVATE_TARGETS=allow`). */
  webhookPrivateTargets: boolean;
  /** Seconds before the first retry of a webhook delivery (doubling each time); 0 retries at once. */
  webhookRetryBaseSeconds: number;
  /** The secret that encrypts webhook signing secrets; `""` = webhooks cannot be created. */
  webhookSecretKey: string;
}

export class SettingsError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid setting ${variable}: ${detail}`);
    this.name = "SettingsError";
  }
}

const segment = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._~-]+$/, "must be one URL path segment"));
const language = v.pipe(
  v.string(),
  v.regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/, "must be a language code such as en or pt-BR"),
);
const positiveInt = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a positive integer"),
  v.transform(Number),
  v.minValue(1, "must be at least 1"),
);
const nonNegativeInt = v.pipe(
  v.string(),
  v.regex(/^\d+$/, "must be a whole number of seconds"),
  v.transform(Number),
);

function field<T>(
  env: Record<string, unknown>,
  name: string,
  schema: v.GenericSchema<string, T>,
  fallback: string,
): T {
  const raw = env[name];
  const value = raw === undefined || raw === null || raw === "" ? fallback : String(raw).trim();
  const result = v.safeParse(schema, value);
  if (!result.success)
    throw new SettingsError(name, `${JSON.stringify(value)} ${result.issues[0].message}`);
  return result.output;
}

function list(raw: unknown): string[] {
  return String(raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `LANGUAGES` as written (default `en,de`), not yet validated. */
const languagesAsWritten = (env: Record<string, unknown>) => list(env.LANGUAGES ?? "en,de");

/**
 * The language of an answer while the settings cannot be parsed (the 500 `rest_setting_invalid`
 * of contract §1): the path's language prefix when `LANGUAGES` as written lists it, else
 * `DEFAULT_LANGUAGE` when listed, else English. Never throws.
 * @param prefix the first segment of the request's path (`de` of `/de/wp-json/…`).
 * @example languageWithoutSettings({ LANGUAGES: "en,de", SITE_TIMEZONE: "Mars/Base" }, "de") // "de"
 */
export function languageWithoutSettings(
  env: Partial<Bindings> | Record<string, unknown>,
  prefix: string,
): string {
  const e = env as Record<string, unknown>;
  const listed = languagesAsWritten(e);
  const fallback = String(e.DEFAULT_LANGUAGE ?? "").trim() || "en";
  if (listed.includes(prefix)) return prefix;
  return listed.includes(fallback) ? fallback : "en";
}

/** `SITE_TIMEZONE` and `SITE_URL` (without trailing slashes). @throws SettingsError */
function siteSettings(e: Record<string, unknown>): Pick<Settings, "siteTimezone" | "siteUrl"> {
  const siteTimezone = field(e, "SITE_TIMEZONE", v.string(), "UTC");
  if (!resolveZone(siteTimezone)) {
    throw new SettingsError(
      "SITE_TIMEZONE",
      `${JSON.stringify(siteTimezone)} is neither an IANA time zone nor UTC±H[:MM]`,
    );
  }
  const siteUrl = field(
    e,
    "SITE_URL",
    v.union([
      v.literal(""),
      v.pipe(
        v.string(),
        v.url("must be an absolute URL"),
        v.regex(/^https?:\/\//, "must be http(s)"),
      ),
    ]),
    "",
  ).replace(/\/+$/, "");
  return { siteTimezone, siteUrl };
}

/** `LANGUAGES` and `DEFAULT_LANGUAGE`, which must be one of them. @throws SettingsError */
function languageSettings(
  e: Record<string, unknown>,
): Pick<Settings, "languages" | "defaultLanguage"> {
  const languages = languagesAsWritten(e);
  if (languages.length === 0)
    throw new SettingsError("LANGUAGES", "must name at least one language");
  for (const lang of languages) {
    const r = v.safeParse(language, lang);
    if (!r.success)
      throw new SettingsError("LANGUAGES", `${JSON.stringify(lang)} ${r.issues[0].message}`);
  }
  const defaultLanguage = field(e, "DEFAULT_LANGUAGE", language, "en");
  if (!languages.includes(defaultLanguage)) {
    throw new SettingsError(
      "DEFAULT_LANGUAGE",
      `${JSON.stringify(defaultLanguage)} is not one of LANGUAGES (${languages.join(", ")})`,
    );
  }
  return { languages, defaultLanguage };
}

/** `PER_PAGE_MAX` and `PER_PAGE_DEFAULT`, at most the maximum. @throws SettingsError */
function pagingSettings(
  e: Record<string, unknown>,
): Pick<Settings, "perPageDefault" | "perPageMax"> {
  const perPageMax = field(e, "PER_PAGE_MAX", positiveInt, "50");
  const perPageDefault = field(e, "PER_PAGE_DEFAULT", positiveInt, "12");
  if (perPageDefault > perPageMax) {
    throw new SettingsError(
      "PER_PAGE_DEFAULT",
      `${perPageDefault} is larger than PER_PAGE_MAX (${perPageMax})`,
    );
  }
  return { perPageDefault, perPageMax };
}

/**
 * Parses and validates the settings of contract §1: the site, languages and paging first (each
 * checked against another), then the rest; the first bad variable in that order is named.
 * @throws SettingsError naming the first bad variable.
 * @example parseSettings({ SITE_TIMEZONE: "Europe/Berlin" }).siteTimezone // "Europe/Berlin"
 */
export function parseSettings(env: Partial<Bindings> | Record<string, unknown>): Settings {
  const e = env as Record<string, unknown>;
  const { siteTimezone, siteUrl } = siteSettings(e);
  const { languages, defaultLanguage } = languageSettings(e);
  const { perPageDefault, perPageMax } = pagingSettings(e);
  return {
    siteTimezone,
    siteUrl,
    restPrefix: field(e, "REST_PREFIX", segment, "wp-json"),
    vendor: field(e, "VENDOR", segment, "tribe"),
    languages,
    defaultLanguage,
    perPageDefault,
    perPageMax,
    currencySymbol: field(
      e,
      "CURRENCY_SYMBOL",
      v.pipe(v.string(), v.maxLength(8, "must be at most 8 characters")),
      "$",
    ),
    currencyPosition: field(
      e,
      "CURRENCY_POSITION",
      v.picklist(["prefix", "postfix"], "must be prefix or postfix"),
      "prefix",
    ),
    currencyCode: field(
      e,
      "CURRENCY_CODE",
      v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be an ISO 4217 code such as USD")),
      "USD",
    ),
    corsWriteOrigins: list(e.CORS_WRITE_ORIGINS),
    cacheMaxAge: field(e, "CACHE_MAX_AGE", nonNegativeInt, "60"),
    cacheStaleWhileRevalidate: field(e, "CACHE_STALE_WHILE_REVALIDATE", nonNegativeInt, "300"),
    imageUrlCheck: field(
      e,
      "IMAGE_URL_CHECK",
      v.picklist(["head", "off"], "must be head or off"),
      "head",
    ),
    contentVersionTtlMs: field(
      e,
      "CONTENT_VERSION_TTL_MS",
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, "must be a whole number of milliseconds"),
        v.transform(Number),
      ),
      "1000",
    ),
    readCache:
      field(e, "READ_CACHE", v.picklist(["on", "off"], "must be on or off"), "on") === "on",
    adminAppPassword: String(e.ADMIN_APP_PASSWORD ?? "").replace(/\s+/g, ""),
    webhookPrivateTargets:
      field(
        e,
        "WEBHOOK_PRIVATE_TARGETS",
        v.picklist(["allow", "deny"], "must be allow or deny"),
        "deny",
      ) === "allow",
    webhookRetryBaseSeconds: field(
      e,
      "WEBHOOK_RETRY_BASE_SECONDS",
      v.pipe(nonNegativeInt, v.maxValue(3600, "must be at most 3600 seconds")),
      "10",
    ),
    webhookSecretKey: String(e.WEBHOOK_SECRET_KEY ?? ""),
  };
}
