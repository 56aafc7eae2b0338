/**
 * A webhook receiver the tests control. The worker under test runs in the tests' own isolate, so
 * its outbound `fetch` is the one replaced here: requests to `https://hooks.test/…` (or any URL the
 * test names) are answered by `respond` and recorded — headers, raw body, and whether the
 * signature verifies with the `standardwebhooks` library, as a real receiver would check it.
 */
import { Webhook } from "standardwebhooks";
import { vi } from "vitest";

export interface Received {
  url: string;
  headers: Record<string, string>;
  /** The raw body, as signed. */
  raw: string;
  body: any;
}

/** What the fake receiver answers: a status, or a thrown error (network failure). */
export type Respond = (req: Received, n: number) => number | Error | Promise<number | Error>;

/** Starts receiving on every URL `matches` accepts. Undo with `receiver.stop()` (or `vi.restoreAllMocks()`). */
export function startReceiver(
  respond: Respond = () => 204,
  matches: (url: string) => boolean = (url) => url.startsWith("https://hooks.test/"),
) {
  const received: Received[] = [];
  const original = globalThis.fetch;
  const spy = vi
    .spyOn(globalThis, "fetch")
    .mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      if (!matches(request.url)) return original(input, init);
      const raw = await request.text();
      const entry: Received = {
        url: request.url,
        headers: Object.fromEntries(request.headers),
        raw,
        body: JSON.parse(raw),
      };
      received.push(entry);
      const answer = await respond(entry, received.length);
      if (answer instanceof Error) throw answer;
      return new Response(null, { status: answer });
    });
  return {
    received,
    /** The deliveries whose body `type` is `type`. */
    ofType: (type: string) => received.filter((r) => r.body.type === type),
    stop: () => spy.mockRestore(),
  };
}

/**
 * Verifies a delivery as a receiver does (`Webhook.verify` of the library) and returns its payload.
 * @throws WebhookVerificationError when the signature does not match the secret.
 */
export function verify(secret: string, delivery: Received): unknown {
  return new Webhook(secret).verify(delivery.raw, delivery.headers);
}
