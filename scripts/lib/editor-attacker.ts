/**
 * A page on another origin (a second port of 127.0.0.1) for the editor check's CSRF case: it makes
 * the signed-in browser send a form POST and a `fetch` with `credentials: "include"` to the API's
 * event create. Same site (SameSite cookies go along between ports of one host), other origin:
 * only the missing `X-WP-Nonce` keeps the session cookie from authenticating them (contract §7.11).
 */
import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { freePort } from "./instance";

/** The attacking site: its origin and a stop. */
export interface Attacker {
  origin: string;
  stop(): Promise<void>;
}

const escapeAttr = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Serves `/form?target=…&title=…` (a form that posts itself) and `/fetch?target=…&title=…` (a
 * script that posts with the browser's cookies, `no-cors`: sent whatever CORS says, the answer
 * opaque) on a free port.
 */
export async function startAttacker(): Promise<Attacker> {
  const port = await freePort();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
    const target = url.searchParams.get("target") ?? "";
    const title = url.searchParams.get("title") ?? "";
    const fields = { title, start_date: "2030-01-01 10:00:00", end_date: "2030-01-01 11:00:00" };
    let body = "";
    if (url.pathname === "/form")
      body = `<form method="post" action="${escapeAttr(target)}">${Object.entries(fields)
        .map(([k, v]) => `<input name="${k}" value="${escapeAttr(v)}">`)
        .join("")}</form><script>document.forms[0].submit()</script>`;
    else if (url.pathname === "/fetch")
      body = `<script>fetch(${JSON.stringify(target)}, {method: "POST", credentials: "include", mode: "no-cors",
        headers: {"Content-Type": "application/x-www-form-urlencoded"},
        body: ${JSON.stringify(new URLSearchParams(fields).toString())}})
        .then((r) => { document.title = "done " + r.status; }, (e) => { document.title = "done " + e; });</script>`;
    res.writeHead(body ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>elsewhere</title>${body}`);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * What one cross-site attempt got: the API's status (0 when the browser kept the answer from the
 * page: a credentialed cross-origin `fetch` of an answer with `Access-Control-Allow-Origin: *`),
 * and whether the session cookie went along.
 */
export interface Attempt {
  kind: "form" | "fetch";
  status: number;
  cookieSent: boolean;
}

/**
 * Opens the attacker's two pages in `page` (whose context holds the editor's session) and returns
 * what became of each POST.
 */
export async function attack(
  page: Page,
  attacker: string,
  target: string,
  title: string,
): Promise<Attempt[]> {
  const out: Attempt[] = [];
  for (const kind of ["form", "fetch"] as const) {
    const sent = page.waitForRequest((r) => r.url() === target && r.method() === "POST", {
      timeout: 15_000,
    });
    const query = new URLSearchParams({ target, title: `${title} (${kind})` });
    await page.goto(`${attacker}/${kind}?${query}`);
    const request = await sent;
    const headers = await request.allHeaders();
    const res = await request.response();
    if (kind === "fetch") await page.waitForFunction(() => document.title.startsWith("done"));
    out.push({
      kind,
      status: res?.status() ?? 0,
      cookieSent: /wordpress_logged_in/.test(headers.cookie ?? ""),
    });
  }
  return out;
}
