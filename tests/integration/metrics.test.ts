/**
 * GET /metrics (issue "running it for years", item 2) through the real HTTP server: Prometheus's text
 * format with requests by route pattern and status, the process's figures, the database pool, the
 * outbox, live streams and payments; served to this machine only without METRICS_TOKEN and only to
 * its bearer with one (anyone else gets the 404 page); never cached, never in the sitemap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";
import { eventually } from "../support/smtp";

const TOKEN = "metrics-token-for-tests-0123456789";

/** One sample's value: `name{labels} value` (labels as written, in any order). */
function sample(body: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of body.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return null;
}

describe.each(testDatabases)("/metrics on $name", (database) => {
  describe("without a token: this machine only", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("answers Prometheus's text with requests by route pattern and status, and the process's figures", async () => {
      await server.get("/");
      await server.get("/client/login");
      await server.get("/client/orders/0b6e1f3a-4c2d-4e5f-8a9b-0c1d2e3f4a5b");
      await server.get("/no-such-page-here");
      // A request is counted on its response's "finish", which can come a moment after the client has
      // read the last byte (and asked for /metrics on another connection): ask again until the last
      // request is counted, rather than racing it.
      let res!: Response;
      const body = await eventually(async () => {
        res = await server.get("/metrics");
        const text = await res.text();
        return (
          sample(text, "portico_http_requests_total", { route: "(not found)", status: "404" }) !== null &&
          text
        );
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(
        sample(body, "portico_http_requests_total", { route: "/client/login", method: "GET", status: "200" }),
      ).toBe(1);
      // A signed-out visitor is sent to sign in; the order's id is a pattern, not a value.
      expect(
        sample(body, "portico_http_requests_total", { route: "/client/orders/:id", status: "302" }),
      ).toBe(1);
      expect(sample(body, "portico_http_requests_total", { route: "(not found)", status: "404" })).toBe(1);
      expect(body).not.toContain("0b6e1f3a-4c2d");
      expect(sample(body, "portico_http_request_duration_seconds_count", { route: "/client/login" })).toBe(1);
      for (const name of [
        "portico_nodejs_eventloop_lag_seconds",
        "portico_process_resident_memory_bytes",
        "portico_nodejs_heap_size_used_bytes",
        "portico_db_pool_waiting",
        "portico_live_streams_open",
        "portico_outbox_oldest_queued_age_seconds",
        "portico_payments_recorded",
        "portico_payments_needing_attention",
      ]) {
        expect(sample(body, name), name).not.toBeNull();
      }
      expect(sample(body, "portico_outbox_emails", { state: "queued" })).not.toBeNull();
      expect(sample(body, "portico_db_pool_connections", { state: "in_use" })).not.toBeNull();
    });

    it("is a 404 page for a client elsewhere, and not in the sitemap", async () => {
      const res = await server.get("/metrics", { headers: { "x-forwarded-for": "203.0.113.7" } });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("portico_http_requests_total");
      expect(await (await server.get("/sitemap.xml")).text()).not.toContain("/metrics");
    });
  });

  describe("with METRICS_TOKEN: its bearer only", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(database, { METRICS_TOKEN: TOKEN });
    });
    afterAll(async () => {
      await server?.close();
    });

    it("refuses this machine without the token and a wrong token, and answers the right one", async () => {
      expect((await server.get("/metrics")).status).toBe(404);
      const wrong = await server.get("/metrics", { headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.status).toBe(404);
      const right = await server.get("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(right.status).toBe(200);
      expect(await right.text()).toContain("# TYPE portico_http_requests_total counter");
    });
  });
});
