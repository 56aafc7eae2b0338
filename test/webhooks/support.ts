/**
 * Helpers of the webhook tests: register a webhook through the API, wait for what the queue
 * delivers, read the outbox.
 */
import { env } from "cloudflare:workers";
import { expect, vi } from "vitest";
import { ADMIN, api, NS } from "../support/api";

/** Registers a webhook as the administrator; returns the answer body (with `secret`). */
export async function register(body: Record<string, unknown>): Promise<any> {
  const res = await api(`${NS}/webhooks`, { json: body, headers: ADMIN });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Waits until `check` passes (the local queue delivers in batches, after up to a second or so). */
export const eventually = <T>(check: () => T | Promise<T>, timeout = 15_000) =>
  vi.waitFor(check, { timeout, interval: 100 });

/** Rows in the outbox right now. */
export async function outboxRows(): Promise<Array<Record<string, unknown>>> {
  return (await env.DB.prepare("SELECT * FROM webhook_outbox ORDER BY id").all()).results;
}

/** A short pause (for asserting that nothing more arrives). */
export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
