import { test as base, expect, type Page } from "@playwright/test";

interface ConsoleWatch {
  /** Tolerate console errors matching this pattern in the current test (e.g. an expected 404). */
  allow(pattern: RegExp): void;
}

/**
 * Every browser test runs against the server of global-setup.ts and fails on console errors (CSP included).
 * Mech, the chat assistant, opens by itself 3 s into a first visit; so that no test races that timer, every
 * page starts with its "seen" flag set, except in Mech's own tests (`test.use({ chatSeen: false })`).
 */
export const test = base.extend<{ consoleWatch: ConsoleWatch; chatSeen: boolean }>({
  chatSeen: [true, { option: true }],
  page: async ({ page, chatSeen }, use) => {
    if (chatSeen) {
      await page.addInitScript(() => {
        try {
          window.localStorage.setItem("portico.chat.seen", "true");
        } catch {
          /* storage blocked: nothing to prime */
        }
      });
    }
    await use(page);
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
  baseURL: async ({}, use) => {
    const url = process.env.PORTICO_E2E_URL;
    if (!url) throw new Error("PORTICO_E2E_URL is not set: run through `npm run test:e2e`.");
    await use(url);
  },
  // Each test comes from its own address (the e2e server trusts X-Forwarded-For), so per-address rate
  // limits hold as in production without one test's sign-ups throttling another's. Loopback addresses:
  // GeoIP knows no country for them, so Accept-Language decides the currency as the tests expect.
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    let hash = 0;
    for (const ch of testInfo.testId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
    await use({
      ...extraHTTPHeaders,
      "x-forwarded-for": `127.${(hash >> 16) % 256}.${(hash >> 8) % 256}.${hash % 256}`,
    });
  },
  consoleWatch: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(e.message));
      await use({ allow: (p) => allowed.push(p) });
      expect(
        errors.filter((e) => !allowed.some((p) => p.test(e))),
        "console errors",
      ).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Holds the page's scripts back until the returned function is called, so a test can type into the
 * server-rendered page before it hydrates, as a visitor on a slow connection does.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route("**/assets/**/*.js", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
