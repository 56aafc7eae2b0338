/**
 * Turning a generated request (a `Draft`) into a real `Request`: values encoded as a query string,
 * a urlencoded form, a multipart form (PHP brackets for nested values) or JSON, and what the worker's
 * own parser makes of them (so a generator can check that a value stays invalid once encoded).
 */
import { parseQueryString } from "../../../src/http/params";
import { ORIGIN } from "./client";

export type Method = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";
export const METHODS: Method[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Where parameters travel. */
export type Container = "query" | "json" | "form" | "multipart";

export interface Draft {
  method: Method;
  /** Path after the API root, e.g. `/wp-json/tribe/events/v1/events/12`. */
  path: string;
  /** Language prefix: `""`, `/en` or `/de`. */
  lang: string;
  query: Record<string, unknown>;
  /** Raw text appended to the query string (broken escapes, thousands of keys, oversize). */
  rawQuery: string;
  container: Exclude<Container, "query">;
  body: Record<string, unknown>;
  /** Sent instead of the encoded body when set (broken JSON, oversize). */
  rawBody?: string;
  headers: Record<string, string>;
}

/** `[key, value]` pairs with PHP brackets for nested arrays and objects; JSON-only values stringified. */
export function pairs(obj: Record<string, unknown>, prefix = ""): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === undefined) continue;
    if (v === null) out.push([key, ""]);
    else if (Array.isArray(v)) {
      if (v.length === 0) out.push([`${key}[]`, ""]);
      v.forEach((item, i) => {
        if (item !== null && typeof item === "object")
          out.push(...pairs(item as Record<string, unknown>, `${key}[${i}]`));
        else out.push([`${key}[]`, String(item ?? "")]);
      });
    } else if (typeof v === "object") {
      const entries = Object.keys(v as object);
      if (entries.length === 0) out.push([key, ""]);
      else out.push(...pairs(v as Record<string, unknown>, key));
    } else out.push([key, String(v)]);
  }
  return out;
}

/** Percent-encodes like a browser form, keeping brackets readable (as PHP clients send them). */
const enc = (s: string) =>
  encodeURIComponent(s.replace(/[\ud800-\udfff]/g, (c) => c))
    .replace(/%5B/g, "[")
    .replace(/%5D/g, "]");

function safeEnc(s: string): string {
  try {
    return enc(s);
  } catch {
    // Lone surrogates: send them as the replacement character's bytes would be.
    return enc(s.replace(/[\ud800-\udfff]/g, "\ufffd"));
  }
}

export function formText(obj: Record<string, unknown>): string {
  return pairs(obj)
    .map(([k, v]) => `${safeEnc(k)}=${safeEnc(v)}`)
    .join("&");
}

const BOUNDARY = "----HardeningBoundaryAbC7xYz";

function multipartText(obj: Record<string, unknown>): string {
  const parts = pairs(obj).map(
    ([k, v]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k.replace(/["\r\n]/g, "_")}"\r\n\r\n${v.replace(/[\ud800-\udfff]/g, "\ufffd")}\r\n`,
  );
  return `${parts.join("")}--${BOUNDARY}--\r\n`;
}

/** What the worker reads for `name` once the value went through `container`. */
export function decoded(container: Container, name: string, value: unknown): unknown {
  if (container === "json") {
    const text = JSON.stringify({ [name]: value });
    return (JSON.parse(text) as Record<string, unknown>)[name];
  }
  const text = formText({ [name]: value });
  const parsed = parseQueryString(
    container === "multipart" ? text.replace(/[\ud800-\udfff]/g, "\ufffd") : text,
  );
  return parsed[name];
}

/** Builds the Request; also returns the body text for failure messages. */
export function toRequest(d: Draft): { request: Request; bodyText?: string } {
  const query = [formText(d.query), d.rawQuery].filter(Boolean).join("&");
  const url = `${ORIGIN}${d.lang}${d.path}${query ? `?${query}` : ""}`;
  const headers = new Headers(d.headers);
  let bodyText: string | undefined;
  if (!["GET", "HEAD"].includes(d.method)) {
    if (d.rawBody !== undefined) bodyText = d.rawBody;
    else if (Object.keys(d.body).length) {
      if (d.container === "json") {
        bodyText = JSON.stringify(d.body);
        if (!headers.has("content-type")) headers.set("content-type", "application/json");
      } else if (d.container === "form") {
        bodyText = formText(d.body);
        if (!headers.has("content-type"))
          headers.set("content-type", "application/x-www-form-urlencoded");
      } else {
        bodyText = multipartText(d.body);
        if (!headers.has("content-type"))
          headers.set("content-type", `multipart/form-data; boundary=${BOUNDARY}`);
      }
    }
  }
  return { request: new Request(url, { method: d.method, headers, body: bodyText }), bodyText };
}
