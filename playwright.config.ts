import { defineConfig } from "@playwright/test";

/**
 * Browser tests drive the system Chromium (Debian's `chromium`; CHROMIUM_PATH overrides), never a
 * downloaded browser. tests/e2e/global-setup.ts starts the built production server on a free port
 * with a fresh database.
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  // A journey (sign in, pay, page through lists, an axe scan per page) takes 15-28 s on an idle 2-core
  // machine and went past Playwright's default 30 s once in five runs under load: the budget is 60 s.
  timeout: 60_000,
  // A sign-in (a password hash) or a page's lazy chunks took 5-6 s while the machine ran other builds:
  // an expectation waits up to 10 s for what it expects (it returns as soon as it holds).
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    headless: true,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
