/**
 * GET /metrics (issue "running it for years", item 2) through the real HTTP server: Prometheus's text
 * format with requests by route pattern and status, the process's figures, the database pool, the
 * outbox, live streams and payments; served to this machine only without METRICS_TOKEN and only to
 * its bearer with one (anyone else gets the 404 page); never cached, never in the sitemap.
 *
 * Issue 35: requests are labelled with the route they matched (`(other)` for anything unmatched, one
 * label for built files, cached answers with their route), so made-up paths add no series; "this
 * machine" is the connection's own loopback address, never what X-Forwarded-For says under TRUST_PROXY.
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

/** The label sets of the requests counter, one string each (`route method status`). */
function requestSeries(body: string): string[] {
  const out: string[] = [];
  for (const line of body.split("\n")) {
    if (!line.startsWith("portico_http_requests_total{")) continue;
    const label = (k: string) => new RegExp(`${k}="([^"]*)"`).exec(line)?.[1];
    out.push(`${label("route")} ${label("method")} ${label("status")}`);
  }
  return out;
}

/** Requests counted, but the scrapes of /metrics itself. */
function requestTotal(body: string): number {
  let total = 0;
  for (const line of body.split("\n")) {
    if (!line.startsWith("portico_http_requests_total{") || line.includes('route="/metrics"')) continue;
    total += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return total;
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
          sample(text, "portico_http_requests_total", { route: "(other)", status: "404" }) !== null && text
        );
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(
        sample(body, "portico_http_requests_total", { route: "/client/login", method: "GET", status: "200" }),
      ).toBe(1);
      // A signed-out visitor is sent to sign in; the order's id is the route's pattern, not a value.
      expect(
        sample(body, "portico_http_requests_total", { route: "/client/orders/:orderId", status: "302" }),
      ).toBe(1);
      expect(sample(body, "portico_http_requests_total", { route: "(other)", status: "404" })).toBe(1);
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

    it("judges 'this machine' by the socket: a forwarded request is refused whatever it claims", async () => {
      // Under TRUST_PROXY=loopback, req.ip of this request is 127.0.0.1 (the header's); anyone reaching
      // the port could send it. Only a connection that is itself loopback and not forwarded is answered.
      for (const headers of <Record<string, string>[]>[
        { "x-forwarded-for": "127.0.0.1" },
        { "x-forwarded-for": "::1" },
        { forwarded: "for=127.0.0.1" },
      ]) {
        const res = await server.get("/metrics", { headers });
        expect(res.status, JSON.stringify(headers)).toBe(404);
        expect(await res.text()).not.toContain("portico_http_requests_total");
      }
      expect((await server.get("/metrics")).status).toBe(200);
    });

    it("labels requests with the route they matched: 1,000 made-up paths add one (other) per method and status", async () => {
      const first = await (await server.get("/metrics")).text();
      const before = new Set(requestSeries(first));
      const paths = Array.from(
        { length: 1000 },
        (_, i) =>
          [
            `/made-up-${i}`,
            // The example: an order's page for a made-up id is still the order page's route.
            `/client/orders/x${i}`,
            `/client/orders/x${i}/more`,
            `/assets/no-such-file-${i}.js`,
            `/${"x".repeat(100 + i)}`,
          ][i % 5]!,
      );
      // Ten at a time: enough to be quick, few enough for a 2-core machine.
      for (let i = 0; i < paths.length; i += 10) {
        const answers = await Promise.all(
          paths.slice(i, i + 10).map((p, j) => server.get(p, { method: j % 2 ? "HEAD" : "GET" })),
        );
        for (const answer of answers) {
          expect(answer.status).toBeLessThan(500);
          // Read whole: a response its client gave up on never finishes, and is not counted.
          await answer.arrayBuffer();
        }
      }
      const body = await eventually(async () => {
        const text = await (await server.get("/metrics")).text();
        return requestTotal(text) >= requestTotal(first) + 1000 && text;
      });
      const added = requestSeries(body).filter((s) => !before.has(s));
      // (other) once per method and status, the order page's pattern, and the scrapes' own /metrics.
      for (const series of added)
        expect(series).toMatch(/^(\(other\)|\/client\/orders\/:orderId|\/metrics) /);
      expect(added.length).toBeLessThanOrEqual(5);
      expect(body).toContain('route="/client/orders/:orderId"');
      expect(body).not.toContain("made-up-");
      expect(body).not.toContain("no-such-file");
      expect(body).not.toMatch(/route="\/client\/orders\/x/);
    }, 180_000);

    it("labels cached answers with their route and built files with one label", async () => {
      await server.get("/api/exchange-rates");
      // A blog post is stored after its first render; later visits are answered before Express, from the
      // cache, and counted under the route's pattern, not the post's address. (The cache is per process:
      // it may be stored already by another test file's server in this worker.)
      const post = "/blog/cpanel-vs-plesk-choosing-the-right-control-panel-for-your-hosting";
      await eventually(async () => (await server.get(post)).headers.get("x-page-cache") === "hit");
      const counted = async () =>
        sample(await (await server.get("/metrics")).text(), "portico_http_requests_total", {
          route: "/blog/:slug",
          method: "GET",
          status: "200",
        }) ?? 0;
      const before = await eventually(async () => {
        const n = await counted();
        return n > 0 && n;
      });
      for (let i = 0; i < 3; i++) expect((await server.get(post)).headers.get("x-page-cache")).toBe("hit");
      await eventually(async () => (await counted()) === before + 3);
      const html = await (await server.get("/")).text();
      const script = /\/assets\/[^"]+\.js/.exec(html)?.[0];
      expect(script).toBeTruthy();
      expect((await server.get(script!)).status).toBe(200);
      expect((await server.get("/favicon.svg")).status).toBe(200);
      const body = await eventually(async () => {
        const text = await (await server.get("/metrics")).text();
        return (
          (sample(text, "portico_http_requests_total", { route: "(built files)", status: "200" }) ?? 0) >=
            2 && text
        );
      });
      expect(body).not.toContain(post);
      expect(body).not.toContain(script!);
      expect(body).not.toMatch(/route="\/assets/);
      expect(body).not.toContain('route="/favicon.svg"');
    });
  });

  describe("with METRICS_TOKEN: its bearer only", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(database, { METRICS_TOKEN: TOKEN, TRUST_PROXY: "loopback" });
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

    it("answers the token's bearer behind a proxy (X-Forwarded-For), and refuses the header without it", async () => {
      const forwarded = { "x-forwarded-for": "127.0.0.1" };
      expect((await server.get("/metrics", { headers: forwarded })).status).toBe(404);
      const right = await server.get("/metrics", {
        headers: { ...forwarded, authorization: `Bearer ${TOKEN}` },
      });
      expect(right.status).toBe(200);
    });
  });
});
