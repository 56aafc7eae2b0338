/**
 * A counting HTTP proxy in front of the service: the example builds talk to it, and it notes every
 * request with the bytes of its answer, so a test can say what a build downloaded: the body as
 * the client reads it (decompressed: what the issue's "~1.2 MB" of a full download measured) and
 * what went over the wire (status line, headers, and the body as sent, compressed when the client
 * asked for it). The `Host` header goes through unchanged, so the service's `next_rest_url` links
 * lead back through the proxy.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";

/** A decompressor for a `Content-Encoding`, undefined for none. */
function decoder(encoding: string | undefined) {
  if (encoding === "gzip") return zlib.createGunzip();
  if (encoding === "br") return zlib.createBrotliDecompress();
  if (encoding === "deflate") return zlib.createInflate();
  return undefined;
}

/** One request a build made. */
export interface Hit {
  method: string;
  /** Path and query. */
  url: string;
  status: number;
  /** Bytes of the body, decompressed. */
  body: number;
  /** Bytes of the answer as sent: status line, headers and the (compressed) body. */
  wire: number;
}

export interface CountingProxy {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  /** Every request since the last `take()`, and forgets them. */
  take(): Hit[];
  close(): Promise<void>;
}

/** Starts a proxy to `target` (`http://127.0.0.1:<port>`) on a free port. */
export async function countingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        const head = `HTTP/1.1 ${answer.statusCode} ${answer.statusMessage}\r\n${Object.entries(
          answer.headers,
        )
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n`;
        let sent = 0;
        let body = 0;
        const decode = decoder(answer.headers["content-encoding"]);
        decode?.on("data", (chunk: Buffer) => (body += chunk.length));
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on("data", (chunk: Buffer) => {
          sent += chunk.length;
          if (decode) decode.write(chunk);
          else body += chunk.length;
          res.write(chunk);
        });
        answer.on("end", () => {
          const done = () => {
            hits.push({
              method: req.method ?? "GET",
              url: req.url ?? "",
              status: answer.statusCode ?? 0,
              body,
              wire: Buffer.byteLength(head) + sent,
            });
            res.end();
          };
          if (decode) decode.end(done);
          else done();
        });
      },
    );
    forward.on("error", (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    take() {
      const taken = hits;
      hits = [];
      return taken;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
