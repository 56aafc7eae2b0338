/**
 * Calls the worker in-process (src/index.ts `fetch`, the same entry SELF uses, without the loopback
 * hop) and checks what every answer must satisfy, whatever was sent:
 * - never a 5xx;
 * - a 4xx is the WordPress envelope `{code, message, data: {status}}` with `data.status` equal to the
 *   HTTP status and a message that was found in the strings (not a bare key);
 * - `X-Content-Type-Options: nosniff`, no `Server` header;
 * - no credential, password or digest of one in the body or the headers.
 */

import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../../src/index";

export const ORIGIN = "http://calendar.test";

/** What the checks need to know of the request. */
export interface Shown {
  method: string;
  url: string;
  headers: Headers;
  /** The body as sent, when there was one. */
  body?: string;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Sends one request through the worker and reads the whole answer. */
export async function call(request: Request): Promise<Answer> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, env as never, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, text, body };
}

/**
 * The problems of one answer (empty when it is fine).
 * @param expect4xx the request was malformed by construction: anything but a 4xx is a problem.
 * @param secrets strings that must never appear in an answer.
 */
export function problems(
  request: Shown,
  answer: Answer,
  options: { expect4xx: boolean; secrets: string[] },
): string[] {
  const out: string[] = [];
  const { status, headers, text, body } = answer;
  if (status >= 500 || status < 100) out.push(`status ${status}`);
  if (options.expect4xx && (status < 400 || status > 499))
    out.push(`expected a 4xx, got ${status}`);
  if (status >= 400 && request.method !== "HEAD") {
    if (!(headers.get("content-type") ?? "").startsWith("application/json"))
      out.push(`error without JSON content type: ${headers.get("content-type")}`);
    if (!body || typeof body !== "object") out.push("error body is not a JSON object");
    else {
      if (typeof body.code !== "string" || body.code === "") out.push("error without code");
      if (
        typeof body.message !== "string" ||
        body.message === "" ||
        /^(messages|params)\./.test(body.message)
      )
        out.push(`error message missing: ${body.message}`);
      if (!body.data || body.data.status !== status)
        out.push(`data.status ${body.data?.status} differs from HTTP ${status}`);
    }
  }
  if (headers.get("x-content-type-options") !== "nosniff")
    out.push("no X-Content-Type-Options: nosniff");
  if (headers.get("server") !== null) out.push(`Server header: ${headers.get("server")}`);
  const all = `${text}\n${[...headers].map(([k, v]) => `${k}: ${v}`).join("\n")}`;
  for (const secret of options.secrets)
    if (secret && all.includes(secret))
      out.push(`answer contains a secret (${secret.slice(0, 6)}…)`);
  // Internals that no answer prints, unless the request itself carried them (echoed filters).
  let sent = `${request.url}\n${request.body ?? ""}`;
  try {
    sent += `\n${decodeURIComponent(request.url.replace(/\+/g, " "))}`;
  } catch {
    // keep what decodes
  }
  for (const token of [
    "password_digest",
    "passwordDigest",
    "pbkdf2$",
    "SQLITE",
    "D1_ERROR",
    "D1_TYPE_ERROR",
  ]) {
    if (text.includes(token) && !sent.includes(token))
      out.push(`answer reveals internals (${token})`);
  }
  if (/\bat \S+\.(ts|js):\d+/.test(text)) out.push("answer holds a stack trace");
  return out;
}

/** A short, printable description of a request (for failure messages). */
export function describe(request: Shown, bodyText?: string): string {
  const headers = [...request.headers]
    .map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}…` : v}`)
    .join("; ");
  const url =
    request.url.length > 400 ? `${request.url.slice(0, 400)}…(${request.url.length})` : request.url;
  const body =
    bodyText === undefined
      ? ""
      : ` body(${bodyText.length})=${JSON.stringify(bodyText.slice(0, 400))}`;
  return `${request.method} ${url} [${headers}]${body}`;
}
