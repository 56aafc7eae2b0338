/**
 * A browser's view of sign-in (contract §3.1): the form posted to `/wp-login.php`, the session
 * cookie kept from `Set-Cookie`, the REST nonce from `admin-ajax.php`, and requests that carry them.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src/index";
import { ADMIN, type ApiInit, type ApiResponse, api, apiResponse } from "../support/api";

/** Sends a request to the worker at another origin than the tests' (`http://127.0.0.1:8787`, …). */
export async function fetchAt(
  origin: string,
  path: string,
  init: RequestInit = {},
): Promise<ApiResponse> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${origin}${path}`, { redirect: "manual", ...init }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return apiResponse(res);
}

/** The sign-in form, posted. */
export const postSignIn = (
  form: Record<string, string>,
  headers: Record<string, string> = {},
  prefix = "",
) => api(`${prefix}/wp-login.php`, { form, headers });

/** The session token a `Set-Cookie` header sets, or null. */
export function cookieToken(res: ApiResponse): string | null {
  return /wordpress_logged_in=([^;]*)/.exec(res.headers.get("set-cookie") ?? "")?.[1] || null;
}

/** A signed-in browser: its `Cookie` header and its REST nonce. */
export interface Browser {
  cookie: string;
  nonce: string;
  /** `api` with the cookie (and `extra` headers). */
  call: (path: string, init?: ApiInit, nonce?: "header" | "query" | "none") => Promise<ApiResponse>;
}

/** The REST nonce `admin-ajax.php?action=rest-nonce` gives for `cookie`. */
export async function restNonce(cookie: string): Promise<ApiResponse> {
  return api("/wp-admin/admin-ajax.php?action=rest-nonce", { headers: { cookie } });
}

/** Signs in with `log` and `pwd` and fetches the nonce, as the editor does. */
export async function signIn(log: string, pwd: string): Promise<Browser> {
  const res = await postSignIn({ log, pwd });
  expect(res.status, res.text).toBe(302);
  const token = cookieToken(res);
  expect(token).toBeTruthy();
  const cookie = `other=1; wordpress_logged_in=${token}`;
  const nonceRes = await restNonce(cookie);
  expect(nonceRes.status).toBe(200);
  const nonce = nonceRes.text;
  return {
    cookie,
    nonce,
    call: (path, init = {}, how = "header") => {
      const headers: Record<string, string> = { cookie, ...init.headers };
      if (how === "header") headers["x-wp-nonce"] = nonce;
      const url =
        how === "query" ? `${path}${path.includes("?") ? "&" : "?"}_wpnonce=${nonce}` : path;
      return api(url, { ...init, headers });
    },
  };
}

/** Creates a user with a login password (`POST /users`, as an administrator); returns its id. */
export async function createUser(
  username: string,
  role: string,
  password: string,
): Promise<number> {
  const res = await api("/wp-json/wp/v2/users", {
    headers: ADMIN,
    json: { username, email: `${username}@example.org`, password, roles: role },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

/** The `_wpnonce` of the authorization form in a page of `authorize-application.php`. */
export function formNonce(res: ApiResponse): string {
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(res.text)?.[1];
  expect(nonce, res.text).toBeTruthy();
  return nonce!;
}

/** Posts the authorization form as the signed-in browser `cookie` (`fields` with `_wpnonce`). */
export const postAuthorize = (
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  prefix = "",
) =>
  api(`${prefix}/wp-admin/authorize-application.php`, {
    form: { action: "authorize_application_password", ...fields },
    headers: { cookie, ...headers },
  });
