/**
 * Abuse: failed authentication rate limited per client IP (the Workers binding and
 * the in-isolate fallback), application passwords looked up by digest only, no credential in a log
 * line or an error body, and the security headers on every kind of response.
 * (test/http/rate-limit.test.ts covers the basic 429 behaviour; these add to it.)
 */

import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/http/crypto";
import { LIMIT, PERIOD_SECONDS } from "../../src/http/rate-limit";
import worker from "../../src/index";
import { ADMIN, NS } from "../support/api";
import { day } from "../support/dates";
import { seedEvent, seedUser } from "../support/factories";
import { inOneWindow } from "../support/rate-window";
import { call, ORIGIN } from "./support/client";

const basic = (user: string, password: string) => `Basic ${btoa(`${user}:${password}`)}`;
const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
  new Request(`${ORIGIN}${path}`, { method, headers });

afterEach(() => vi.restoreAllMocks());

describe("failed authentication is rate limited per client IP", () => {
  const attempts: Array<[string, (i: number) => string]> = [
    ["wrong passwords for one user", (i) => basic("admin", `wrong-${i}`)],
    ["a different user name each time", (i) => basic(`user${i}`, "guess")],
    ["Bearer tokens", (i) => `Bearer guess-${i}`],
    ["undecodable Basic headers", (i) => `Basic !!${i}!!`],
  ];
  for (const binding of ["the Workers binding", "the in-isolate fallback"]) {
    it.each(attempts)(`counts %s (${binding})`, async (_, header) => {
      const e =
        binding === "the Workers binding"
          ? env
          : (({ AUTH_FAILURES: _b, ...rest }) => rest)(env as unknown as Record<string, unknown>);
      await inOneWindow(async (ip) => {
        const send = async (authorization: string) => {
          const res = await worker.fetch(
            get(`${NS}/events`, { authorization, "cf-connecting-ip": ip }),
            e as never,
            createExecutionContext(),
          );
          return {
            status: res.status,
            retry: res.headers.get("retry-after"),
            body: (await res.json()) as { code: string; data: { status: number } },
          };
        };
        for (let i = 0; i < LIMIT; i++) expect((await send(header(i))).status).toBe(401);
        const blocked = await send(header(LIMIT));
        expect(blocked.status).toBe(429);
        expect(blocked.body).toMatchObject({ code: "too_many_requests", data: { status: 429 } });
        expect(Number(blocked.retry)).toBeGreaterThan(0);
        expect(Number(blocked.retry)).toBeLessThanOrEqual(PERIOD_SECONDS);
        // Blocked also with the right password, so guessing cannot go on; anonymous reads still work.
        expect((await send(ADMIN.authorization)).status).toBe(429);
        const anonymous = await worker.fetch(
          get(`${NS}/events`, { "cf-connecting-ip": ip }),
          e as never,
          createExecutionContext(),
        );
        expect(anonymous.status).toBe(200);
      });
    });
  }
});

/** Everything written to the console while `run` runs, as text. */
async function logsOf(run: () => Promise<unknown>): Promise<string> {
  const lines: string[] = [];
  const show = (x: unknown): string =>
    x instanceof Error
      ? `${x.name}: ${x.message} ${x.stack ?? ""} ${x.cause ? show(x.cause) : ""}`
      : typeof x === "string"
        ? x
        : (JSON.stringify(x) ?? String(x));
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(show).join(" "));
    });
  }
  await run();
  vi.restoreAllMocks();
  return lines.join("\n");
}

describe("no credential, password or token in a log line or an error body", () => {
  it("failed and successful logins, failing writes and new secrets leave no secret in logs or answers", async () => {
    const editor = await seedUser("editor");
    const editorPassword = "pw-editor-0123456789";
    const secrets = [
      "test admin password",
      editorPassword,
      "wrong-Secret-42",
      "Bearer-Token-Xyz",
      "Login-Pass-1234",
    ];
    const answers: string[] = [];
    const send = async (request: Request) => answers.push((await call(request)).text);
    const logs = await logsOf(async () => {
      await send(
        get(`${NS}/events`, {
          authorization: basic("admin", "wrong-Secret-42"),
          "cf-connecting-ip": "198.51.100.30",
        }),
      );
      await send(
        get(`${NS}/events`, {
          authorization: "Bearer Bearer-Token-Xyz",
          "cf-connecting-ip": "198.51.100.31",
        }),
      );
      await send(
        get(`${NS}/events`, {
          authorization: basic("editor", "test admin password"),
          "cf-connecting-ip": "198.51.100.32",
        }),
      );
      // A write that fails inside D1 while authenticated (logged as an unexpected error).
      await env.DB.exec(
        "CREATE TRIGGER no_events BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
      );
      const body = JSON.stringify({
        title: "T",
        start_date: "2027-01-01",
        end_date: "2027-01-01",
        password: "Login-Pass-1234",
      });
      await send(
        new Request(`${ORIGIN}${NS}/events`, {
          method: "POST",
          headers: { ...editor.headers, "content-type": "application/json" },
          body,
        }),
      );
      await env.DB.exec("DROP TRIGGER no_events");
      await env.DB.exec(
        "CREATE TRIGGER no_users BEFORE INSERT ON users BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
      );
      const user = JSON.stringify({
        username: "new.user",
        email: "n@example.com",
        password: "Login-Pass-1234",
      });
      await send(
        new Request(`${ORIGIN}/wp-json/wp/v2/users`, {
          method: "POST",
          headers: { ...ADMIN, "content-type": "application/json" },
          body: user,
        }),
      );
      await env.DB.exec("DROP TRIGGER no_users");
      await env.DB.exec(
        "CREATE TRIGGER no_app_passwords BEFORE INSERT ON application_passwords BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
      );
      await send(
        new Request(`${ORIGIN}/wp-json/wp/v2/users/me/application-passwords`, {
          method: "POST",
          headers: { ...editor.headers, "content-type": "application/json" },
          body: '{"name":"x"}',
        }),
      );
    });
    expect(logs).toContain("request failed"); // the failing writes were logged…
    const forms = (s: string) => [s, btoa(`admin:${s}`), btoa(`editor:${s}`)];
    for (const secret of secrets) {
      const digest = await sha256Hex(secret);
      for (const form of [...forms(secret), digest]) {
        expect(logs, "logs").not.toContain(form); // …without any secret
        for (const answer of answers) expect(answer).not.toContain(form);
      }
    }
    expect(logs).not.toMatch(/authorization|Basic [A-Za-z0-9+/=]{8,}/i);
  });
});

describe("application passwords are compared by digest lookup only", () => {
  it("binds the password's SHA-256 to the lookup, never the password, and stores no clear text", async () => {
    const bound: unknown[] = [];
    const statement = (s: D1PreparedStatement): D1PreparedStatement =>
      new Proxy(s, {
        get(t, k) {
          if (k === "bind")
            return (...values: unknown[]) => {
              bound.push(...values);
              return statement(t.bind(...values));
            };
          const v = Reflect.get(t, k);
          return typeof v === "function" ? v.bind(t) : v;
        },
      });
    const session = (s: D1DatabaseSession) =>
      new Proxy(s, {
        get(t, k) {
          if (k === "prepare") return (q: string) => statement(t.prepare(q));
          const v = Reflect.get(t, k);
          return typeof v === "function" ? v.bind(t) : v;
        },
      });
    const DB = new Proxy(env.DB, {
      get(t, k) {
        if (k === "withSession") return (c: string) => session(t.withSession(c));
        const v = Reflect.get(t, k);
        return typeof v === "function" ? v.bind(t) : v;
      },
    });
    const created = await call(
      new Request(`${ORIGIN}/wp-json/wp/v2/users/me/application-passwords`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": "application/json" },
        body: '{"name":"probe"}',
      }),
    );
    const password: string = created.body.password;
    expect(password).toMatch(/^(\w{4} ){5}\w{4}$/);
    await seedEvent({ title: "E", start: day(1) });
    const res = await worker.fetch(
      get(`${NS}/events`, { authorization: basic("admin", password) }),
      { ...env, DB, ADMIN_APP_PASSWORD: "" } as never,
      createExecutionContext(),
    );
    expect(res.status).toBe(200);
    const clear = password.replace(/ /g, "");
    expect(bound).toContain(await sha256Hex(clear));
    expect(
      bound.some((v) => typeof v === "string" && (v.includes(clear) || v.includes(password))),
    ).toBe(false);
    // Nothing in the database holds the password in clear.
    const tables = (
      await env.DB.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      ).all<{ name: string }>()
    ).results;
    for (const { name } of tables) {
      const rows = JSON.stringify((await env.DB.prepare(`SELECT * FROM "${name}"`).all()).results);
      expect(rows, name).not.toContain(clear);
    }
  });

  it("a WordPress login password is never accepted as an API credential", async () => {
    const created = await call(
      new Request(`${ORIGIN}/wp-json/wp/v2/users`, {
        method: "POST",
        headers: { ...ADMIN, "content-type": "application/json" },
        body: JSON.stringify({
          username: "lena",
          email: "lena@example.com",
          password: "Login-Pass-1234",
        }),
      }),
    );
    expect(created.status).toBe(201);
    expect(
      (
        await call(
          get("/wp-json/wp/v2/users/me", {
            authorization: basic("lena", "Login-Pass-1234"),
            "cf-connecting-ip": "198.51.100.77",
          }),
        )
      ).status,
    ).toBe(401);
  });
});

describe("security headers on every response", () => {
  it("nosniff and no Server header on 2xx, 3xx, 4xx, 5xx, HEAD, preflight and the iCal feed", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const first = await call(get(`${NS}/events`));
    const requests: Array<[number, Request]> = [
      [200, get(`${NS}/events`)],
      [200, get(`${NS}/events`, {}, "HEAD")],
      [304, get(`${NS}/events`, { "if-none-match": first.headers.get("etag")! })],
      [
        204,
        get(
          `${NS}/events`,
          { origin: "https://x.example", "access-control-request-method": "POST" },
          "OPTIONS",
        ),
      ],
      [400, get(`${NS}/events?per_page=0`)],
      [
        401,
        get(`${NS}/events`, {
          authorization: basic("admin", "nope"),
          "cf-connecting-ip": "198.51.100.90",
        }),
      ],
      [403, get(`${NS}/events/${id}`, {}, "DELETE")],
      [404, get("/nowhere")],
      [414, get(`${NS}/events?x=${"q".repeat(9000)}`)],
    ];
    for (const [status, request] of requests) {
      const answer = await call(request);
      expect(answer.status, request.url.slice(0, 80)).toBe(status === 403 ? 401 : status);
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("server")).toBeNull();
    }
    const ics = await call(get(`${NS}/events.ics`));
    expect(ics.headers.get("x-content-type-options")).toBe("nosniff");
    await env.DB.exec(
      "CREATE TRIGGER boom BEFORE INSERT ON events BEGIN SELECT RAISE(ABORT, 'injected failure'); END;",
    );
    const failed = await logsOf(async () => {
      const answer = await call(
        new Request(`${ORIGIN}${NS}/events`, {
          method: "POST",
          headers: { ...ADMIN, "content-type": "application/json" },
          body: '{"title":"T","start_date":"2027-01-01","end_date":"2027-01-01"}',
        }),
      );
      expect(answer.status).toBe(500);
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("server")).toBeNull();
    });
    expect(failed).toContain("request failed");
    const misconfigured = await worker.fetch(
      get(`${NS}/events`),
      { ...env, SITE_TIMEZONE: "Mars/Base" } as never,
      createExecutionContext(),
    );
    expect(misconfigured.status).toBe(500);
    expect(misconfigured.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
