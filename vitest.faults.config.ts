import { defineConfig } from "vitest/config";

/**
 * `npm run test:faults`: the fault and load suite (docs/decisions/0900-fault-and-load-suite.md). It
 * starts production server processes, kills them and loads them, so it runs apart from `npm test`,
 * one file at a time, on the production build.
 */
export default defineConfig({
  resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
  test: {
    name: "faults",
    include: ["tests/faults/**/*.test.ts"],
    environment: "node",
    globalSetup: ["tests/support/require-build.ts"],
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
