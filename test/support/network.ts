/**
 * The internet as the worker's outbound `fetch` sees it in tests (the machine has none, and tests
 * must not depend on one): `installNetwork()` (test/setup.ts, before every test) replaces the global
 * `fetch` — the worker runs in the tests' isolate — with a tiny image host. Hosts named `example`
 * (`img.example`, `example.com`, `img.example.com`, …) answer like a web server; every other host is
 * unreachable, as it is here. Paths:
 *
 * - `*.jpg|jpeg|png|gif|webp|avif|svg|html|pdf` → 200 with that file's type; `/photo` → 200
 *   `image/png` (a CDN URL without extension);
 * - `/missing…` → 404;
 * - `/r/{n}/{path}` → `n` redirects (302), then `/{path}`;
 * - `/internal/…` → a redirect to `http://127.0.0.1/…`;
 * - `/slow/…` → no answer until the request is aborted (the check's timeout); `network.onHang`, when a
 *   test sets it, is called once the request hangs (a test that drives the timeout aborts it there).
 *
 * Every request is recorded in `network.requests`.
 */
import { vi } from "vitest";

const TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  svg: "image/svg+xml",
  html: "text/html; charset=UTF-8",
  pdf: "application/pdf",
};

export const network = {
  requests: [] as Array<{ method: string; url: string }>,
  /** Called when a request to `/slow/…` starts hanging (reset before every test). */
  onHang: undefined as (() => void) | undefined,
};

async function answer(url: URL, init: RequestInit | undefined): Promise<Response> {
  const path = url.pathname;
  if (path.startsWith("/slow/"))
    return new Promise((_, reject) => {
      const signal = init?.signal;
      if (!signal) return;
      signal.addEventListener("abort", () => reject(signal.reason));
      network.onHang?.();
    });
  if (path.startsWith("/missing")) return new Response(null, { status: 404 });
  if (path.startsWith("/internal/"))
    return new Response(null, {
      status: 302,
      headers: { location: `http://127.0.0.1${path.slice("/internal".length)}` },
    });
  const redirect = /^\/r\/(\d+)\/(.*)$/.exec(path);
  if (redirect) {
    const left = Number(redirect[1]);
    const next = left > 0 ? `/r/${left - 1}/${redirect[2]}` : `/${redirect[2]}`;
    return new Response(null, { status: 302, headers: { location: next } });
  }
  if (path === "/photo")
    return new Response(null, { status: 200, headers: { "content-type": "image/png" } });
  const type = TYPES[/\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? ""];
  return new Response(null, {
    status: 200,
    headers: { "content-type": type ?? "application/octet-stream" },
  });
}

/** The fake `fetch`: image hosts answer, other hosts fail like an unreachable network. */
export async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  network.requests.push({ method: request.method, url: url.toString() });
  if (!/(^|\.)example(\.[a-z]+)?$/.test(url.hostname))
    throw new TypeError(`Network connection lost (no route to ${url.hostname})`);
  if (request.method !== "HEAD") return new Response(null, { status: 405 });
  return answer(url, init);
}

/** Replaces the global `fetch` with `fakeFetch` and forgets earlier requests. */
export function installNetwork(): void {
  network.requests.length = 0;
  network.onHang = undefined;
  vi.stubGlobal("fetch", fakeFetch);
}
