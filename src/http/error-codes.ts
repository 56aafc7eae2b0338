/**
 * The closed list of error codes the service answers with (tec-reference §10.2, §10.3; WordPress's
 * own codes for `wp/v2` and the REST server). `ApiError` takes only these, so a new code fails to
 * compile until it is listed here; the strings check (test/root/strings.test.ts) reads this list
 * to demand a message for each in both languages.
 */

/**
 * The codes that differ per linked-post kind only. The kinds are src/linked-posts/record.ts
 * `LinkedKind` (the framework knows no resource): the linked posts' `${kind}-…` errors fail to
 * compile when a kind is missing here.
 */
const perKind = <S extends string>(suffix: S) =>
  (["venue", "organizer"] as const).map((kind) => `${kind}-${suffix}` as const);

/** Codes an `ApiError` carries; each has its message under `messages.{code}` in the strings files. */
export const API_ERROR_CODES = [
  // The REST server (§1.3, §1.4, §10.1).
  "rest_no_route",
  "rest_forbidden",
  "rest_forbidden_context",
  "rest_invalid_param",
  "rest_missing_callback_param",
  "rest_invalid_json",
  "rest_payload_too_large",
  "rest_uri_too_long",
  "rest_not_logged_in",
  "rest_internal_error",
  "rest_write_conflict",
  "too_many_requests",
  // Events (§10.3).
  "rest-event-not-found",
  "rest-invalid-event-id",
  "event-archive-page-not-found",
  "event-is-in-trash",
  "event-no-longer-available",
  "event-not-accessible",
  "event-password-protected",
  "invalid-linked-post-id",
  // Venues and organizers (§10.3).
  ...perKind("archive-page-not-found"),
  ...perKind("is-in-trash"),
  ...perKind("not-accessible"),
  // Posts, terms (§8.8).
  "rest_post_invalid_id",
  // The read-only `wp/v2` posts, terms, post types and taxonomies (contract §3).
  "rest_term_invalid",
  "rest_type_invalid",
  "rest_taxonomy_invalid",
  "rest_forbidden_status",
  "rest_post_invalid_page_number",
  "rest_post_incorrect_password",
  "rest_trash_not_supported",
  "rest_taxonomy_not_hierarchical",
  "term_exists",
  // Users and application passwords (contract §3).
  "existing_user_email",
  "existing_user_login",
  "incorrect_password",
  // Cookie authentication without a valid nonce (contract §3.1, WordPress rest_cookie_check_errors).
  "rest_cookie_invalid_nonce",
  "rest_cannot_delete_admin",
  "rest_cannot_delete_self",
  "rest_cannot_edit_roles",
  "rest_user_invalid_argument",
  "rest_user_invalid_email",
  "rest_user_invalid_id",
  "rest_user_invalid_reassign",
  "rest_user_invalid_role",
  "rest_user_invalid_slug",
  "rest_application_password_not_found",
  "application_password_duplicate_name",
  "application_password_empty_name",
  // Webhooks (contract §7.5).
  "rest_webhook_invalid_id",
  "rest_webhooks_unavailable",
] as const;

/** A code an `ApiError` may carry. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/** Messages of codes that have more than one (`ApiError`'s `messageKey`). */
export const EXTRA_MESSAGE_KEYS = [
  "rest_user_cannot_give_role",
  "term_exists_parent",
  "override_changed",
] as const;

/** A key under `messages.` in the strings files. */
export type MessageKey = ApiErrorCode | (typeof EXTRA_MESSAGE_KEYS)[number];

/** Codes of the nested envelopes in `data.details` of `rest_invalid_param` (§10.2). */
export const DETAIL_CODES = ["event-tickets-not-active"] as const;

/** A code of a nested envelope in `data.details`. */
export type DetailCode = (typeof DETAIL_CODES)[number];

/**
 * Every code the service answers with: the API errors, the nested details, and Hono's own 4xx
 * (its message, untranslated).
 */
export const ERROR_CODES = [...API_ERROR_CODES, ...DETAIL_CODES, "rest_invalid_request"] as const;

/** Any error code of the service. */
export type ErrorCode = (typeof ERROR_CODES)[number];
