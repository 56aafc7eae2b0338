/**
 * `@tec-edge/client`: a typed client of The Events Calendar's REST API (`tribe/events/v1`) as
 * tec-edge serves it — revalidation, list walking, incremental sync and webhook verification.
 * Runs in Node ≥ 20 and browsers; `@tec-edge/client/node` adds the file store.
 */
export * from "./changes.js";
export * from "./client.js";
export * from "./errors.js";
export { ERROR_CODES, type ErrorCode } from "./generated/error-codes.js";
export type { components, paths } from "./generated/openapi.js";
export * from "./sync.js";
export * from "./types.js";
export * from "./webhooks.js";
