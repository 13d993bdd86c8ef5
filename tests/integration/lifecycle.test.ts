import { afterEach, describe, expect, it } from "vitest";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

describe.each(testDatabases)("lifecycle on $name", (database) => {
  let server: TestServer | null = null;
  afterEach(async () => {
    await server?.close().catch(() => {});
    server = null;
  });

  it("reports 503 on /healthz when the database is gone", async () => {
    server = await startTestServer(database);
    await server.portico.runtime.database.close();
    const res = await server.get("/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "error", database: "down" });
  });
});

describe("configuration errors", () => {
  it("stop start-up with a clear message naming the variable", async () => {
    const { loadBuild } = await import("../support/server");
    const build = await loadBuild();
    await expect(build.startPortico({ PGLITE_DIR: "memory://", PORT: "not-a-port" })).rejects.toThrow(
      /^Invalid configuration: PORT must be a port number/,
    );
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("several processes on one PostgreSQL", () => {
  it("migrate and seed once when they start together", async () => {
    const { loadBuild } = await import("../support/server");
    const { testDatabases: dbs } = await import("../support/databases");
    const build = await loadBuild();
    const fresh = await dbs.find((d) => d.name === "postgres")!.create();
    const env = { ...fresh.env, LOG_LEVEL: "silent", NODE_ENV: "test" };
    try {
      const started = await Promise.all([
        build.startPortico(env),
        build.startPortico(env),
        build.startPortico(env),
      ]);
      const { rows } = await started[0]!.runtime.database.pool!.query(
        "select count(*)::int as n from services",
      );
      expect(rows[0].n).toBe(8);
      await Promise.all(started.map((p) => p.close()));
    } finally {
      await fresh.drop();
    }
  });
});
