/**
 * Each layout owns its landmarks (ARCHITECTURE.md, "Lessons from trying the finished portal"): the site
 * header, the portal's sidebar, header, search and bell, and the back office's sidebar sit outside
 * `<main>`, which holds the page's own content only. Every page has exactly one `<main id="main">`, and
 * "Skip to content", the first stop of the Tab key, moves focus to it so that the next Tab lands in the
 * page's content, not in the navigation.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

async function signIn(page: Page, email: string, lands: RegExp) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(lands);
}

/** The navigation landmarks of the layouts (site header, portal shell, back office), by name. */
const CHROME_NAVIGATION = ["Main", "Mobile", "Portal", "Back office", "Quick Links", "Services"];

/**
 * Exactly one main, and none of the layouts' landmarks inside it. A page's own navigation (pagination,
 * status filters) may sit in main; `strict` (the two dashboards, which have none) allows no navigation.
 */
async function expectOneMainWithoutChrome(page: Page, { strict = false } = {}) {
  await expect(page.locator("main")).toHaveCount(1);
  await expect(page.locator("main#main")).toHaveCount(1);
  const main = page.locator("main");
  await expect(main.locator("[role=banner], [role=contentinfo]")).toHaveCount(0);
  for (const name of CHROME_NAVIGATION) {
    await expect(main.getByRole("navigation", { name, exact: true })).toHaveCount(0);
  }
  if (strict) await expect(main.locator("nav, [role=navigation], header, aside")).toHaveCount(0);
}

/**
 * From the top of the page: the first Tab reaches "Skip to content", Enter moves focus to the main
 * landmark (which holds the page's heading), and the next Tab lands inside it, outside any navigation.
 */
async function expectSkipLinkSkipsTheChrome(page: Page) {
  // A fresh load: the keyboard starts at the top of the document, as for a visitor arriving on the page.
  await page.reload();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
  await expect(page.locator("main#main h1")).toHaveCount(1);
  await page.keyboard.press("Tab");
  const next = await page.evaluate((chrome) => {
    const el = document.activeElement;
    const nav = el?.closest("nav, [role=navigation]");
    return {
      inMain: Boolean(el && document.querySelector("main")?.contains(el) && el.tagName !== "MAIN"),
      inChrome:
        Boolean(el?.closest("body > header, [role=banner], aside")) ||
        chrome.includes(nav?.getAttribute("aria-label") ?? ""),
      text: (el?.textContent?.trim() || el?.getAttribute("aria-label") || el?.tagName || "").slice(0, 40),
    };
  }, CHROME_NAVIGATION);
  expect(next, `the Tab after "Skip to content" reached "${next.text}"`).toEqual({
    inMain: true,
    inChrome: false,
    text: next.text,
  });
}

test("the portal's sidebar, header, search and bell sit outside main, and Skip to content skips them", async ({
  page,
}) => {
  await signIn(page, adminFixtures().unpaidInvoice.clientEmail, /\/client\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectOneMainWithoutChrome(page, { strict: true });
  // The shell's own parts: its navigation (the sidebar), its header with search and the bell.
  await expect(page.getByRole("navigation", { name: "Portal" }).first()).toBeAttached();
  await expect(page.locator("main #portal-search")).toHaveCount(0);
  await expect(page.locator("main").getByRole("button", { name: /Notifications/ })).toHaveCount(0);
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expectSkipLinkSkipsTheChrome(page);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // A page of the shell reached by client-side navigation keeps the same landmarks.
  await page
    .getByRole("navigation", { name: "Portal" })
    .first()
    .getByRole("link", { name: "Invoices" })
    .click();
  await expect(page).toHaveURL(/\/client\/invoices$/);
  await expectOneMainWithoutChrome(page);
});

test("the back office's sidebar sits outside main, and Skip to content skips it", async ({ page }) => {
  await signIn(page, adminFixtures().adminEmail, /\/admin\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expectOneMainWithoutChrome(page, { strict: true });
  await expect(page.getByRole("navigation", { name: "Back office" })).toBeAttached();
  await expectSkipLinkSkipsTheChrome(page);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto("/admin/orders");
  await expectOneMainWithoutChrome(page);
  await expectSkipLinkSkipsTheChrome(page);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("public pages keep one main with the site header outside it, and a working skip link", async ({
  page,
}) => {
  for (const url of ["/", "/privacy", "/client/login"]) {
    await page.goto(url);
    await expectOneMainWithoutChrome(page);
    await expectSkipLinkSkipsTheChrome(page);
  }
  await page.goto("/");
  await expect(page.getByRole("banner")).toHaveCount(1);
  await expect(page.locator("main header, main footer")).toHaveCount(0);
});

test("the 404 page and the error page have exactly one main too", async ({ page, consoleWatch }) => {
  consoleWatch.allow(/Failed to load resource: the server responded with a status of 404/);
  // The catch-all route, a loader's 404 (the root error boundary) and a 404 in the back office's path.
  for (const url of ["/no-such-page", "/blog/no-such-post", "/admin/no-such-page"]) {
    const res = await page.goto(url);
    expect(res?.status(), url).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectOneMainWithoutChrome(page);
    await expectSkipLinkSkipsTheChrome(page);
  }
  // A signed-in admin asking for an order that does not exist: the error replaces the back office frame.
  await signIn(page, adminFixtures().adminEmail, /\/admin\/dashboard$/);
  const res = await page.goto("/admin/orders/00000000-0000-4000-8000-000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("main")).toHaveCount(1);
});
