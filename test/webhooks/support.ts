/**
 * Helpers of the webhook tests besides the driven worker (driven.ts) and the receiver
 * (receiver.ts): registering, the outbox and the delivery log as they stand.
 */
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { ADMIN, api, NS } from "../support/api";
import type { Driven } from "./driven";

/**
 * Registers a webhook as the administrator; returns the answer body (with `secret`).
 * @param send how to reach the worker: `api`, or a driven worker's (`Driven.register`) when the
 *   test goes on to write or deliver.
 */
export async function register(body: Record<string, unknown>, send = api): Promise<any> {
  const res = await send(`${NS}/webhooks`, { json: body, headers: ADMIN });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** Rows in the outbox right now. */
export async function outboxRows(): Promise<Array<Record<string, unknown>>> {
  return (await env.DB.prepare("SELECT * FROM webhook_outbox ORDER BY id").all()).results;
}

/** The delivery log of a webhook, oldest first (at most 50 entries). */
export async function deliveryLog(hooks: Driven, id: number): Promise<any[]> {
  const res = await hooks.api(`${NS}/webhooks/${id}/deliveries?per_page=50`, { headers: ADMIN });
  return [...res.body.deliveries].reverse();
}

/** UTC `Y-m-d H:i:s` → Unix seconds. */
export const seconds = (t: string) => Date.parse(`${t.replace(" ", "T")}Z`) / 1000;
