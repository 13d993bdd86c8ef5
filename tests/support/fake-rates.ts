/**
 * A local exchange-rate provider on 127.0.0.1 for tests: answers what `respond` says and counts calls.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRatesProvider {
  url: string;
  calls: number;
  /** What the next requests get: a status and a JSON body, after an optional delay. */
  respond: { status: number; body: unknown; delayMs?: number };
  close(): Promise<void>;
}

export async function startFakeRatesProvider(
  respond: FakeRatesProvider["respond"] = { status: 200, body: { base: "USD", rates: { USD: 1, GBP: 0.5 } } },
): Promise<FakeRatesProvider> {
  const provider = { calls: 0, respond } as FakeRatesProvider;
  const server: Server = createServer((_req, res) => {
    provider.calls += 1;
    const { status, body, delayMs = 0 } = provider.respond;
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    }, delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  provider.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/latest/USD`;
  provider.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return provider;
}
