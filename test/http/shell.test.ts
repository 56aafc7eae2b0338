import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDb } from "../../src/db/client";
import worker from "../../src/index";
import { contentDigest } from "../hardening/support/digest";
import { ADMIN, api, NS, ORIGIN } from "../support/api";
import { day } from "../support/dates";
import { seedEvent } from "../support/factories";

const multipart = (boundary: string, fields: Record<string, string>) =>
  `${Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join("")}--${boundary}--\r\n`;

/** Calls the worker with a different configuration. */
async function withEnv(vars: Record<string, string>, path: string, init: RequestInit = {}) {
  const res = await worker.fetch(
    new Request(`${ORIGIN}${path}`, init),
    { ...env, ...vars },
    createExecutionContext(),
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe("headers on every response (§12.2, contract §6)", () => {
  it("sends WordPress's REST headers and TEC's discovery headers", async () => {
    const res = await api(`/de${NS}/events`);
    expect(res.headers.get("content-type")).toBe("application/json; charset=UTF-8");
    expect(res.headers.get("x-robots-tag")).toBe("noindex");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("link")).toBe(`<${ORIGIN}/de/wp-json/>; rel="https://api.w.org/"`);
    expect(res.headers.get("x-tec-api-version")).toBe("v1");
    expect(res.headers.get("x-tec-api-root")).toBe(`${ORIGIN}/de${NS}/`);
    expect(res.headers.get("x-tec-api-origin")).toBe(`${ORIGIN}/de`);
    expect(res.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect(res.headers.get("server")).toBeNull();
  });

  it("lets any origin read, without credentials mode, with exposed paging headers", async () => {
    const res = await api(`${NS}/events`, { headers: { origin: "https://widget.example" } });
    expect(res.headers.get("access-control-allow-origin")).toBe("https://widget.example");
    expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    expect(res.headers.get("vary")).toContain("Origin");
    expect(res.headers.get("access-control-expose-headers")).toMatch(
      /X-WP-Total.*X-WP-TotalPages.*Link.*X-TEC-Total/,
    );
  });

  it("answers CORS preflights", async () => {
    const res = await api(`${NS}/events`, {
      method: "OPTIONS",
      headers: { origin: "https://widget.example", "access-control-request-method": "POST" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBe(
      "OPTIONS, GET, HEAD, POST, PUT, PATCH, DELETE",
    );
  });

  it("refuses cross-origin writes from origins outside CORS_WRITE_ORIGINS and tells browsers so", async () => {
    const vars = {
      CORS_WRITE_ORIGINS: "https://admin.example",
      ADMIN_APP_PASSWORD: "test admin password",
    };
    const body = JSON.stringify({
      title: "x",
      start_date: "2027-01-01 10:00",
      end_date: "2027-01-01 11:00",
    });
    const headers = { ...ADMIN, "content-type": "application/json" };
    const evil = await withEnv(vars, `${NS}/events`, {
      method: "POST",
      body,
      headers: { ...headers, origin: "https://evil.example" },
    });
    expect(evil.status).toBe(403);
    expect(evil.body.code).toBe("rest_forbidden");
    expect(evil.headers.get("access-control-allow-methods")).toBe("OPTIONS, GET, HEAD");
    const ok = await withEnv(vars, `${NS}/events`, {
      method: "POST",
      body,
      headers: { ...headers, origin: "https://admin.example" },
    });
    expect(ok.status).toBe(201);
    // The site's own pages (the sign-in form, the editor) always may.
    const own = await withEnv(vars, `${NS}/events`, {
      method: "POST",
      body,
      headers: { ...headers, origin: new URL(ORIGIN).origin },
    });
    expect(own.status).toBe(201);
    const read = await withEnv(vars, `${NS}/events`, {
      headers: { origin: "https://evil.example" },
    });
    expect(read.status).toBe(200);
  });

  it("honours WordPress's method override on POST", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const res = await api(`${NS}/events/${id}?_method=DELETE`, { method: "POST", headers: ADMIN });
    expect(res.body.status).toBe("trash");
    const put = await api(`${NS}/events/${id}`, {
      method: "POST",
      json: { title: "Renamed" },
      headers: { ...ADMIN, "x-http-method-override": "PATCH" },
    });
    expect(put.body.title).toBe("Renamed");
  });

  it("returns the D1 bookmark", async () => {
    const res = await api(`${NS}/events`);
    expect(res.headers.get("x-d1-bookmark")).toBeTruthy();
  });
});

describe("settings (contract §1)", () => {
  it("answers every request with a clear 500 when SITE_TIMEZONE is wrong, never a wrong answer", async () => {
    const res = await withEnv({ SITE_TIMEZONE: "Mars/Base" }, `${NS}/events`);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe("rest_setting_invalid");
    expect(res.body.message).toContain("SITE_TIMEZONE");
  });

  it("uses PER_PAGE_DEFAULT, a site time zone and SITE_URL", async () => {
    await seedEvent({ title: "E", start: day(1) });
    const res = await withEnv(
      {
        PER_PAGE_DEFAULT: "5",
        SITE_TIMEZONE: "Asia/Tokyo",
        SITE_URL: "https://events.example.org",
      },
      `/de${NS}/events`,
    );
    expect(res.status).toBe(200);
    const rest = new URL(res.body.rest_url);
    expect(rest.origin + rest.pathname).toBe(`https://events.example.org/de${NS}/events/`);
    expect(rest.searchParams.get("per_page")).toBe("5");
    expect(res.body.events[0].url).toBe("https://events.example.org/event/e/");
    expect(res.body.events[0].global_id).toMatch(/^events\.example\.org\?id=\d+$/);
  });
});

describe("request bodies (contract §5)", () => {
  it("reads multipart/form-data with PHP brackets like a form post", async () => {
    const form = new FormData();
    form.append("title", "Multipart");
    form.append("start_date", "2027-04-01 10:00:00");
    form.append("end_date", "2027-04-01 11:00:00");
    form.append("tags[]", "alpha");
    form.append("tags[]", "beta");
    form.append("venue[venue]", "Form Hall");
    const res = await api(`${NS}/events`, { method: "POST", body: form, headers: ADMIN });
    expect(res.status).toBe(201);
    expect(res.body.tags.map((t: any) => t.name)).toEqual(["alpha", "beta"]);
    expect(res.body.venue.venue).toBe("Form Hall");
  });

  it("reads multipart bodies whose boundary has capital letters, as browsers send them", async () => {
    const boundary = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
    const body = multipart(boundary, {
      title: "Upper",
      start_date: "2027-01-01 10:00:00",
      end_date: "2027-01-01 11:00:00",
      "tags[]": "x",
    });
    const res = await api(`${NS}/events`, {
      method: "POST",
      body,
      headers: { ...ADMIN, "content-type": `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ title: "Upper", tags: [{ name: "x" }] });
  });

  it("refuses a multipart body that cannot be parsed instead of treating it as empty, and changes nothing", async () => {
    const id = await seedEvent({ title: "E", start: day(1) });
    const before = await contentDigest();
    for (const [type, body] of [
      [
        "multipart/form-data; boundary=AbC",
        '--AbC\r\nContent-Disposition: form-data; name="title"\r\n\r\nno end',
      ],
      ["multipart/form-data", "title=x"],
      ["multipart/form-data; boundary=other", multipart("AbC", { title: "x" })],
    ]) {
      const res = await api(`${NS}/events/${id}`, {
        method: "PUT",
        body,
        headers: { ...ADMIN, "content-type": type },
      });
      expect(res.status, type).toBe(400);
      expect(res.body).toMatchObject({
        code: "rest_invalid_param",
        data: { status: 400, params: { body: "Invalid parameter." } },
      });
    }
    expect(await contentDigest()).toBe(before);
    // An empty multipart body is no parameters at all, as before.
    expect(
      (
        await api(`${NS}/events/${id}`, {
          method: "PUT",
          body: "",
          headers: { ...ADMIN, "content-type": "multipart/form-data; boundary=x" },
        })
      ).status,
    ).toBe(200);
  });

  it("reads comma lists and bracket arrays in query strings alike", async () => {
    const a = await api(`${NS}/events?include=1,2`);
    const b = await api(`${NS}/events?include[]=1&include[]=2`);
    expect(new URL(a.body.rest_url).searchParams.get("include")).toBe("1,2");
    expect(new URL(b.body.rest_url).searchParams.get("include")).toBe("1,2");
  });
});

describe("conditional requests (§12.3)", () => {
  it("If-None-Match: * never turns a refused request into 304; a valid one still gets its 304", async () => {
    await seedEvent({ title: "E", start: day(1) });
    for (const path of [
      `${NS}/events?per_page=-1`,
      `${NS}/events/999999`,
      `${NS}/venues/by-slug/nope`,
      `${NS}/nowhere`,
    ]) {
      const res = await api(path, { headers: { "if-none-match": "*" } });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.body.data.status).toBe(res.status);
    }
    const ok = await api(`${NS}/events`, { headers: { "if-none-match": '"x", *' } });
    expect(ok.status).toBe(304);
    expect(ok.headers.get("etag")).toMatch(/^"[0-9a-f]{40}"$/);
    const first = await api(`${NS}/events`);
    expect(
      (await api(`${NS}/events`, { headers: { "if-none-match": first.headers.get("etag")! } }))
        .status,
    ).toBe(304);
  });
});

describe("what every request builds", () => {
  it("a D1 handle without drizzle's relational schema (unused; it cost ~0.1 ms a request)", () => {
    const { db } = openDb(env.DB, { write: false });
    expect((db as unknown as { query?: Record<string, unknown> }).query ?? {}).toEqual({});
  });
});
