/**
 * A signed-in client on a shared public page (ADR 0822): the page is the visitor's (from the cache),
 * and the header asks /api/session after load, then shows the client's buttons in the room it held
 * for them; signing out brings the visitor's back. Without JavaScript the visitor's header stays, and
 * its Login sends a signed-in client on to the dashboard.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { signUp } from "./clients";
import { expect, test } from "./fixtures";

/** The answer to /api/session held back until the returned function is called. */
async function holdSessionAnswer(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route("**/api/session", async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b).not.toBeNull();
  return b!;
}

test("a signed-in client gets the shared home page, then their header after load; signing out brings the visitor's", async ({
  page,
}) => {
  await signUp(page, "Shared Page Client");
  const release = await holdSessionAnswer(page);
  const response = await page.goto("/");
  // The shared page, not a render for this client.
  expect(response?.headers()["x-page-cache"]).toMatch(/^(hit|miss)$/);
  expect(await response?.text()).not.toContain("Shared Page Client");

  const header = page.getByRole("banner");
  await expect(header).toHaveAttribute("data-hydrated", "true");
  const login = header.getByRole("link", { name: "Login" });
  const dashboard = header.getByRole("link", { name: "Dashboard" });
  // Before the answer: the visitor's buttons, as rendered; the signed-in ones hold their room unseen.
  await expect(login).toBeVisible();
  await expect(dashboard).toBeHidden();
  const nav = header.getByRole("navigation", { name: "Main" });
  const navBefore = await box(nav);
  const logoBefore = await box(header.getByRole("link").first());
  // A keyboard user already on Login stays on the button in its place.
  await login.focus();

  release();
  await expect(dashboard).toBeVisible();
  await expect(dashboard).toHaveAttribute("href", "/client/dashboard");
  await expect(login).toBeHidden();
  await expect(header.getByRole("link", { name: "Sign Up" })).toBeHidden();
  await expect(dashboard).toBeFocused();
  // Nothing moved.
  expect(await box(nav)).toEqual(navBefore);
  expect(await box(header.getByRole("link").first())).toEqual(logoBefore);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);

  await header.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(login).toBeVisible();
  await expect(dashboard).toBeHidden();
  await page.goto("/services/ssl-setup");
  await expect(page.getByRole("banner")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();
});

test("without JavaScript a signed-in client sees the visitor's header, and Login sends them on", async ({
  page,
  browser,
}) => {
  await signUp(page, "No Script Client");
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    baseURL: new URL(page.url()).origin,
    extraHTTPHeaders: { "x-forwarded-for": "127.200.1.1" },
  });
  try {
    const plain = await noScript.newPage();
    await plain.goto("/");
    const header = plain.getByRole("banner");
    await expect(header.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Dashboard" })).toBeHidden();
    await header.getByRole("link", { name: "Login" }).click();
    await expect(plain).toHaveURL(/\/client\/dashboard$/);
  } finally {
    await noScript.close();
  }
});

test("at phone width the menu shows the signed-in client's buttons once the answer is in", async ({
  page,
}) => {
  await signUp(page, "Phone Client");
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/privacy");
  const header = page.getByRole("banner");
  await expect(header).toHaveAttribute("data-hydrated", "true");
  await header.getByRole("button", { name: "Open menu" }).click();
  const menu = header.getByRole("navigation", { name: "Mobile" });
  await expect(menu.getByRole("link", { name: "Dashboard" })).toBeVisible();
  await expect(menu.getByRole("button", { name: "Sign Out" })).toBeVisible();
  await expect(menu.getByRole("link", { name: "Login" })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await menu.getByRole("link", { name: "Dashboard" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
});
