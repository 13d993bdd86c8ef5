/**
 * The body limit in front of routes that read the body themselves: a raw-body reader (a webhook
 * checking a signature) still gets every byte when the body fits, and never runs when it does not.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  BODY_LIMITS,
  bodyLimit,
  DEFAULT_BODY_LIMIT_BYTES,
  limitFor,
  ruleFor,
  tooLargeMessage,
} from "./body-limit";

const LIMIT = 1024;
let server: Server;
let base: string;
const received: Buffer[] = [];

beforeAll(async () => {
  const app = express();
  app.use(bodyLimit({ defaultBytes: LIMIT, rules: [{ prefix: "/big/", bytes: 4 * LIMIT }] }));
  const raw = express.raw({ type: () => true, limit: "10mb" });
  const keep: express.RequestHandler = (req, res) => {
    received.push(req.body as Buffer);
    res.json({ bytes: (req.body as Buffer).length });
  };
  app.post("/hook", raw, keep);
  app.post("/big/hook", raw, keep);
  app.use(((_error, _req, res, _next) => {
    if (!res.headersSent) res.status(500).end();
  }) as express.ErrorRequestHandler);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Posts `body` in chunks without a Content-Length (Transfer-Encoding: chunked). */
function postChunked(path: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method: "POST", headers: { "content-type": "text/plain" } });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (c: Buffer) => {
        text += c.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject);
    for (let i = 0; i < body.length; i += 100) req.write(body.subarray(i, i + 100));
    req.end();
  });
}

describe("bodyLimit", () => {
  it("lets a body within the limit through untouched to a raw-body reader, with or without a length", async () => {
    const body = Buffer.from(`${"x".repeat(LIMIT - 10)}end`);
    const sized = await fetch(`${base}/hook`, {
      method: "POST",
      body,
      headers: { "content-type": "text/plain" },
    });
    expect(await sized.json()).toEqual({ bytes: body.length });
    const chunked = await postChunked("/hook", body);
    expect(JSON.parse(chunked.text)).toEqual({ bytes: body.length });
    expect(received.at(-1)?.equals(body)).toBe(true);
  });

  it("answers 413 before reading a body whose declared length is over the limit", async () => {
    const before = received.length;
    const res = await fetch(`${base}/hook`, {
      method: "POST",
      body: Buffer.alloc(LIMIT + 1, 120),
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: tooLargeMessage(LIMIT) });
    expect(received.length).toBe(before);
  });

  it("counts a chunked body as it streams and stops the reader past the limit", async () => {
    const before = received.length;
    const res = await postChunked("/hook", Buffer.alloc(3 * LIMIT, 120));
    expect(res.status).toBe(413);
    expect(res.text).toBe(tooLargeMessage(LIMIT));
    expect(received.length).toBe(before);
  });

  it("gives a route listed in the rules its own limit", async () => {
    const body = Buffer.alloc(3 * LIMIT, 120);
    const res = await fetch(`${base}/big/hook`, { method: "POST", body });
    expect(await res.json()).toEqual({ bytes: body.length });
    expect((await fetch(`${base}/big/hook`, { method: "POST", body: Buffer.alloc(5 * LIMIT) })).status).toBe(
      413,
    );
  });

  it("picks the longest matching prefix", () => {
    const rules = [
      { prefix: "/api/", bytes: 10 },
      { prefix: "/api/webhooks/", bytes: 20 },
    ];
    expect(limitFor("/api/webhooks/stripe", rules, 5)).toBe(20);
    expect(limitFor("/api/send-email", rules, 5)).toBe(10);
    expect(limitFor("/", rules, 5)).toBe(5);
    // A rule for one media type (uploads) leaves other bodies on the same path at the default.
    const uploads = [...rules, { prefix: "/upload/", bytes: 50, type: "multipart/form-data" }];
    expect(limitFor("/upload/x", uploads, 5, "multipart/form-data; boundary=z")).toBe(50);
    expect(limitFor("/upload/x", uploads, 5, "application/x-www-form-urlencoded")).toBe(5);
    expect(limitFor("/upload/x", uploads, 5)).toBe(5);
    expect(tooLargeMessage(64 * 1024)).toBe("The request is too large: at most 64 KB can be sent here.");
  });

  it("applies a rule with a pattern only to the paths it matches", () => {
    const rules = [{ prefix: "/up/", match: /^\/up\/\d+(\.data)?$/, bytes: 50 }];
    expect(limitFor("/up/12", rules, 5)).toBe(50);
    expect(limitFor("/up/12.data", rules, 5)).toBe(50);
    expect(limitFor("/up/12/files/3", rules, 5)).toBe(5);
    expect(limitFor("/up/x", rules, 5)).toBe(5);
  });

  it("lets a client's order page take a message with five 10 MB files, and no other order path", () => {
    const id = "0b6f7a52-5d0e-4c4e-9a57-1f2d3c4b5a69";
    const five = 5 * 10 * 1024 * 1024;
    for (const path of [`/client/orders/${id}`, `/client/orders/${id}.data`]) {
      expect(limitFor(path, BODY_LIMITS, DEFAULT_BODY_LIMIT_BYTES)).toBeGreaterThan(five + 64 * 1024);
      expect(limitFor(path, BODY_LIMITS, DEFAULT_BODY_LIMIT_BYTES)).toBeLessThanOrEqual(five + 1024 * 1024);
      expect(ruleFor(path, BODY_LIMITS)?.message).toMatch(
        /^The request is too large: attach at most 5 files/,
      );
    }
    for (const path of [
      "/client/orders",
      "/client/orders/",
      "/client/orders/not-an-id",
      `/client/orders/${id}/files/${id}`,
      `/admin/orders/${id}`,
    ]) {
      expect(limitFor(path, BODY_LIMITS, DEFAULT_BODY_LIMIT_BYTES), path).toBe(DEFAULT_BODY_LIMIT_BYTES);
    }
  });

  it("answers a rule's own words when its limit is passed", async () => {
    const app = express();
    app.use(
      bodyLimit({ defaultBytes: LIMIT, rules: [{ prefix: "/up", bytes: 2 * LIMIT, message: "Too big." }] }),
    );
    app.post("/up", (_req, res) => {
      res.send("read");
    });
    const own = createServer(app);
    await new Promise<void>((resolve) => own.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(own.address() as AddressInfo).port}/up`;
      const res = await fetch(url, { method: "POST", body: Buffer.alloc(3 * LIMIT) });
      expect(res.status).toBe(413);
      expect(await res.text()).toBe("Too big.");
    } finally {
      own.closeAllConnections();
      await new Promise<void>((resolve) => own.close(() => resolve()));
    }
  });
});
