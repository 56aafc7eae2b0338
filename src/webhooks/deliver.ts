/**
 * One delivery attempt: `POST url` with the JSON body and the Standard Webhooks headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds, this attempt's) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the decoded secret), signed by
 * the `standardwebhooks` library. Redirects are not followed (a 3xx is a failed attempt); the
 * receiver has `TIMEOUT_MS` to answer.
 */
import { Webhook } from "standardwebhooks";
import { clock } from "./clock";
import { isPrivateTarget } from "./targets";

/** Milliseconds a receiver has to answer. */
export const TIMEOUT_MS = 10_000;

/** What one attempt came to: `error` null = delivered (2xx). */
export interface AttemptResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Signs and sends one message.
 * @param secret the webhook's `whsec_…` secret.
 * @param allowPrivate `WEBHOOK_PRIVATE_TARGETS=allow`: otherwise a target that is not a public host
 *   (src/webhooks/targets.ts) fails without a request (the setting may have changed since the
 *   webhook was registered).
 */
export async function attemptDelivery(options: {
  url: string;
  secret: string;
  messageId: string;
  body: string;
  allowPrivate: boolean;
}): Promise<AttemptResult> {
  // How long the receiver took: measured, not the webhooks' clock (src/webhooks/clock.ts).
  const started = Date.now();
  const done = (statusCode: number | null, error: string | null): AttemptResult => ({
    statusCode,
    error,
    durationMs: Date.now() - started,
  });
  if (!options.allowPrivate && isPrivateTarget(options.url))
    return done(null, "target refused: private, loopback or reserved address");
  const now = new Date(clock.now());
  const signature = new Webhook(options.secret).sign(options.messageId, now, options.body);
  try {
    const res = await fetch(options.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "tec-edge-webhooks/1",
        "webhook-id": options.messageId,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: options.body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await res.body?.cancel();
    return done(res.status, res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}`);
  } catch (err) {
    const name = (err as Error)?.name;
    if (name === "TimeoutError" || name === "AbortError")
      return done(null, `timeout: no answer within ${TIMEOUT_MS / 1000} s`);
    return done(null, `network error: ${(err as Error)?.message ?? String(err)}`.slice(0, 500));
  }
}
