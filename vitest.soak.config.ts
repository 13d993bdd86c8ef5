import { defineConfig } from "vitest/config";

/**
 * `npm run soak`: two production processes on PostgreSQL behind the round-robin proxy, at a steady pace
 * for SOAK_MINUTES (15 by default), sampling memory every 30 s (tests/soak/soak.test.ts). Not part of
 * `npm test`: it takes a quarter of an hour.
 */
const minutes = Number(process.env.SOAK_MINUTES ?? 15);

export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    name: "soak",
    include: ["tests/soak/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/require-build.ts"],
    fileParallelism: false,
    testTimeout: (minutes + 5) * 60_000,
    hookTimeout: 120_000,
  },
});
