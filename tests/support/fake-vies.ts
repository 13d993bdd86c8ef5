/**
 * A fake of the EU's VIES REST service on loopback (issue 40): `POST /check-vat-number` answers from a
 * table the test writes, by full number: "valid" (with a request identifier when a requester is sent),
 * "invalid", "unavailable" (MS_UNAVAILABLE, as a member state's service down), "slow" (never answers),
 * "broken" (a 500 without a body). Unknown numbers are invalid. Every request body is recorded.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type FakeViesAnswer = "valid" | "invalid" | "unavailable" | "slow" | "broken";

export interface FakeVies {
  url: string;
  numbers: Map<string, FakeViesAnswer>;
  requests: Array<Record<string, string>>;
  close(): Promise<void>;
}

export async function startFakeVies(): Promise<FakeVies> {
  const numbers = new Map<string, FakeViesAnswer>();
  const requests: Array<Record<string, string>> = [];
  let counter = 0;
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/check-vat-number") {
      res.writeHead(404).end();
      return;
    }
    let raw = "";
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on("end", () => {
      const body = JSON.parse(raw || "{}") as Record<string, string>;
      requests.push(body);
      const answer = numbers.get(`${body.countryCode}${body.vatNumber}`) ?? "invalid";
      if (answer === "slow") return;
      if (answer === "broken") {
        res.writeHead(500).end();
        return;
      }
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
      if (answer === "unavailable") {
        json(200, { actionSucceed: false, errorWrappers: [{ error: "MS_UNAVAILABLE" }] });
        return;
      }
      json(200, {
        countryCode: body.countryCode,
        vatNumber: body.vatNumber,
        requestDate: new Date().toISOString(),
        valid: answer === "valid",
        requestIdentifier: answer === "valid" && body.requesterNumber ? `WAPIAAAAW${++counter}` : "",
        name: answer === "valid" ? "Acme SARL" : "---",
        address: "---",
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    numbers,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
