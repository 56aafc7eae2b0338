/**
 * `npm run webhook:receive -- --secret whsec_… [--port 9000] [--fail 2]`: a webhook receiver for
 * trying webhooks on this machine (contract §7.5). Listens on http://127.0.0.1:<port>/, verifies every
 * delivery's Standard Webhooks signature with the `standardwebhooks` library — exactly what a real
 * receiver does — prints one line per delivery and answers 204, or 401 when the signature does not
 * verify. `--fail n` answers 503 to the first n deliveries, to watch the retries.
 *
 * Register it with `npm start` running (which allows private targets locally):
 *   curl -u admin:<password> -H 'content-type: application/json' \
 *     -d '{"url":"http://127.0.0.1:9000/","events":["*","calendar.changed"]}' \
 *     http://127.0.0.1:8787/wp-json/tribe/events/v1/webhooks
 * then start this with the `secret` of the answer.
 */
import { createServer } from "node:http";
import { parseArgs } from "node:util";
import { Webhook } from "standardwebhooks";

const USAGE = "Usage: npm run webhook:receive -- --secret whsec_… [--port 9000] [--fail n]";
let options: { secret: string; port: number; fail: number };
try {
  const { values } = parseArgs({
    options: {
      secret: { type: "string" },
      port: { type: "string", default: "9000" },
      fail: { type: "string", default: "0" },
    },
    strict: true,
  });
  if (!values.secret?.startsWith("whsec_")) throw new Error("--secret whsec_… is required");
  options = { secret: values.secret, port: Number(values.port), fail: Number(values.fail) };
} catch (err) {
  console.error(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  process.exit(2);
}

const webhook = new Webhook(options.secret);
let count = 0;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    count++;
    const raw = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]),
    );
    const at = new Date().toISOString().slice(11, 19);
    let payload: { type?: string; data?: unknown };
    try {
      payload = webhook.verify(raw, headers) as typeof payload;
    } catch (err) {
      console.log(`${at} #${count} ✗ signature: ${(err as Error).message} ${raw}`);
      res.writeHead(401).end();
      return;
    }
    const failing = count <= options.fail;
    console.log(
      `${at} #${count} ✓ verified ${headers["webhook-id"]} ${payload.type} ${JSON.stringify(payload.data)}${failing ? " → answering 503" : ""}`,
    );
    res.writeHead(failing ? 503 : 204).end();
  });
});
server.listen(options.port, "127.0.0.1", () =>
  console.log(`Receiving webhooks on http://127.0.0.1:${options.port}/ (Ctrl-C stops)`),
);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
