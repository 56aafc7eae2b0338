/**
 * The sign-in page `{site}/wp-login.php` (contract §3.1) as HTML, in the request's language: the
 * form WordPress's `wp-login.php` shows, with its field names (`log`, `pwd`, `rememberme`,
 * `redirect_to`, submit `wp-submit`) and ids, so that password managers and scripts written for
 * WordPress fill it. No script, no inline style: its one stylesheet is `wp-includes/css/login.css`
 * beside it, and a strict Content-Security-Policy says so.
 */
import { escapeUTF8 } from "entities";
import type { AppContext } from "../http/context";
import { loadStrings, text } from "../i18n";

/** HTML text escaping, also for attribute values in quotes (`entities`). */
export const escapeHtml = escapeUTF8;

/** The page's Content-Security-Policy: nothing but the stylesheet and the form's own target. */
export const SIGN_IN_CSP =
  "default-src 'none'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** What one rendering of the page shows. */
export interface SignInView {
  /** Keys under `login.` of the errors to show (WordPress's `#login_error`), in order. */
  errors?: string[];
  /** A whole message to show as an error (a message of `messages.`, already in the language). */
  errorText?: string;
  /** Key under `login.` of a notice (`logged_out`). */
  notice?: string;
  /** The username to fill in again (never the password). */
  log?: string;
  /** Where to go after signing in (the hidden `redirect_to`). */
  redirectTo?: string;
  remember?: boolean;
  /** The sign-out confirmation instead of the form: the link that signs out. */
  logoutHref?: string;
  status?: 200 | 400 | 403 | 413 | 414 | 429;
}

/** The stylesheet at `{site}/wp-includes/css/login.css`: a centred column that fits a phone. */
export const SIGN_IN_CSS = `body{margin:0;background:#f0f0f1;color:#1d2327;font:16px/1.5 system-ui,sans-serif}
main{max-width:22rem;margin:8vh auto;padding:0 1rem}
h1{font-size:1.5rem;text-align:center}
form,.message,#login_error{background:#fff;border:1px solid #c3c4c7;padding:1.25rem;margin:0 0 1rem}
#login_error{border-left:4px solid #d63638}
.message{border-left:4px solid #72aee6}
label{display:block;font-weight:600}
input[type=text],input[type=password]{box-sizing:border-box;width:100%;font:inherit;padding:.4rem;margin:.25rem 0 1rem;border:1px solid #8c8f94}
.forgetmenot label{display:inline;font-weight:400}
input[type=submit],a.button{font:inherit;padding:.5rem 1rem;background:#2271b1;color:#fff;border:0;text-decoration:none;display:inline-block}
:focus-visible{outline:2px solid #2271b1;outline-offset:2px}
`;

/**
 * Renders the page; `Cache-Control: no-store` (it may name the user) and the CSP above.
 * @returns an HTML response with `view.status` (200 by default).
 */
export async function signInPage(c: AppContext, view: SignInView): Promise<Response> {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const t = (key: string) => escapeHtml(text(strings, `login.${key}`));
  const messages = [
    ...(view.errors ?? []).map(t),
    ...(view.errorText ? [escapeHtml(view.errorText)] : []),
  ];
  const errors = messages.length
    ? `<div id="login_error" role="alert">${messages
        .map((m) => `<p><strong>${t("error")}</strong> ${m}</p>`)
        .join("")}</div>\n`
    : "";
  const notice = view.notice ? `<p class="message" role="status">${t(view.notice)}</p>\n` : "";
  const body = view.logoutHref
    ? `<p class="message">${t("logout_confirm")}</p>
<p><a class="button" href="${escapeHtml(view.logoutHref)}">${t("logout")}</a></p>`
    : `<form name="loginform" id="loginform" action="wp-login.php" method="post">
<p><label for="user_login">${t("username")}</label>
<input type="text" name="log" id="user_login" value="${escapeHtml(view.log ?? "")}" autocomplete="username" autocapitalize="off" spellcheck="false" required></p>
<p><label for="user_pass">${t("password")}</label>
<input type="password" name="pwd" id="user_pass" autocomplete="current-password" spellcheck="false" required></p>
<p class="forgetmenot"><input name="rememberme" type="checkbox" id="rememberme" value="forever"${
        view.remember ? " checked" : ""
      }> <label for="rememberme">${t("remember")}</label></p>
<p class="submit"><input type="submit" name="wp-submit" id="wp-submit" value="${t("submit")}">
<input type="hidden" name="redirect_to" value="${escapeHtml(view.redirectTo ?? "/wp-admin/")}"></p>
</form>`;
  return loginDocument(c, {
    title: t("title"),
    body: `${errors}${notice}${body}`,
    status: view.status ?? 200,
  });
}

/**
 * A page in the sign-in page's frame (its stylesheet, CSP and headers; `Cache-Control: no-store`):
 * the sign-in form, and `wp-admin/authorize-application.php`.
 * @param page.title the title's first part, HTML-escaped (the site's name follows).
 * @param page.body HTML inside `<main>`, escaped by the caller.
 * @param page.base the path back to the language's root from the page (`""` or `"../"`).
 */
export async function loginDocument(
  c: AppContext,
  page: { title: string; body: string; status: number; base?: string },
): Promise<Response> {
  const strings = await loadStrings(c.env.STRINGS, c.get("lang"));
  const site = escapeHtml(text(strings, "site.name"));
  const html = `<!doctype html>
<html lang="${escapeHtml(c.get("lang"))}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${page.title} ‹ ${site}</title>
<link rel="stylesheet" href="${page.base ?? ""}wp-includes/css/login.css">
</head>
<body class="login">
<main id="login">
<h1>${site}</h1>
${page.body}
</main>
</body>
</html>
`;
  c.set("noStore", true);
  const res = c.html(html, page.status as 200);
  res.headers.set("Content-Security-Policy", SIGN_IN_CSP);
  res.headers.set("X-Frame-Options", "DENY");
  res.headers.set("Referrer-Policy", "same-origin");
  return res;
}
