/**
 * The one place a write hands its changes to the webhooks: called by the app's
 * middleware after every successful write (src/app.ts). The write's D1 batch has committed by then,
 * and what it changed is in the outbox (written by triggers in that very batch); draining it runs
 * after the answer, in `waitUntil`, so the answer is never delayed and never changed by webhooks.
 */
import { type AppContext, afterAnswer } from "../http/context";
import { dispatchChanges } from "./dispatch";

/**
 * Schedules the outbox drain for after the answer. Without the `WEBHOOK_QUEUE` binding, or outside
 * a worker invocation (no execution context), it does nothing.
 */
export function dispatchAfterWrite(c: AppContext): void {
  if (!c.env.WEBHOOK_QUEUE) return;
  afterAnswer(c, "webhook dispatch failed (the outbox keeps the changes)", () =>
    dispatchChanges(c.env, c.get("urls").namespaceRoot),
  );
}
