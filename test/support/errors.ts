/**
 * The WordPress error envelope as tests check it (tec-reference §10): `{code, message, data: {status}}`.
 */
import { expect } from "vitest";

/**
 * Asserts an answer is the error `code` with HTTP `status`, in the envelope (`data.status` too);
 * with `message`, the exact message as well.
 * @example expectError(await api(`${USERS}/me`), 401, "rest_not_logged_in")
 */
export function expectError(
  res: { status: number; body: any },
  status: number,
  code: string,
  message?: string,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.body.data.status).toBe(status);
  if (message) expect(res.body.message).toBe(message);
}
