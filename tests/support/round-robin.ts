/**
 * A small round-robin HTTP proxy on 127.0.0.1 for the load test: each request goes to the next server
 * process in turn, streamed both ways (so Server-Sent Events pass through as they are written), with
 * the client's address appended to X-Forwarded-For as a real proxy does. Each answer carries
 * `x-backend: {index}` so the test knows which process served it.
 */
import { Agent, createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RoundRobinProxy {
  url: string;
  /** Requests forwarded to each backend. */
  forwarded: number[];
  /** Requests the proxy could not forward (it answered 502). */
  failures: string[];
  close(): Promise<void>;
}

export async function startRoundRobinProxy(backends: string[]): Promise<RoundRobinProxy> {
  const targets = backends.map((b) => new URL(b));
  // Like nginx or a load balancer: idle connections to the servers are reused, and closed after 30 s,
  // before the servers' own keep-alive timeout (65 s) would close them under a request.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, timeout: 30_000 });
  const forwarded = targets.map(() => 0);
  const failures: string[] = [];
  let next = 0;

  const server: Server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % targets.length;
    const target = targets[index]!;
    forwarded[index]!++;
    const headers = { ...req.headers };
    const from = req.socket.remoteAddress ?? "127.0.0.1";
    headers["x-forwarded-for"] = headers["x-forwarded-for"] ? `${headers["x-forwarded-for"]}, ${from}` : from;
    const upstream = request(
      {
        agent,
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, "x-backend": String(index) });
        res.flushHeaders();
        answer.pipe(res);
      },
    );
    let clientGone = false;
    upstream.on("error", (error) => {
      if (clientGone) return;
      failures.push(`${req.method} ${req.url} → backend ${index}: ${error.message}`);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("Bad gateway");
      else res.destroy();
    });
    // The client went away (a closed event stream): end the upstream request too.
    res.on("close", () => {
      if (res.writableFinished) return;
      clientGone = true;
      upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    forwarded,
    failures,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
