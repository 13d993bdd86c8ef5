import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SERVICE_PAGES = [
  "email-migration",
  "email-deliverability",
  "ssl-setup",
  "cloud-management",
  "data-migration",
  "hosting-support",
  "acronis-setup",
  "per-incident-support",
];

/** The scripts load after the HTML (ADR 0811): the menus respond once the header has hydrated. */
async function gotoHydrated(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole("banner")).toHaveAttribute("data-hydrated", "true");
}

test("the home page renders with header, footer and the seeded services", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header.getByRole("link", { name: "Portico IT Services" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Sign Up" })).toBeVisible();
  const footer = page.getByRole("contentinfo");
  await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy");
  await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms");
  await expect(footer).toContainText("support@portico.example");
  await expect(page.getByRole("heading", { name: "Hosting & Control Panel Support" })).toBeVisible();
  for (const id of ["home", "services", "about", "reviews", "blog", "contact", "quote"]) {
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  }
});

test("the Services dropdown lists the eight service pages, and each one resolves", async ({
  page,
  request,
}) => {
  await gotoHydrated(page, "/");
  const nav = page.getByRole("navigation", { name: "Main" });
  const toggle = nav.getByRole("button", { name: "Services" });
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.hover();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  const links = nav.locator(`#${await toggle.getAttribute("aria-controls")}`).getByRole("link");
  await expect(links).toHaveCount(8);
  const hrefs = await links.evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  expect(hrefs).toEqual(SERVICE_PAGES.map((s) => `/services/${s}`));
  for (const href of hrefs) {
    const res = await request.get(href!);
    expect(res.status(), href!).toBe(200);
  }
  // Moving away closes it; a click then navigates client-side.
  await page.mouse.move(0, 600);
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.hover();
  await links.filter({ hasText: "SSL Setup" }).click();
  await expect(page).toHaveURL(/\/services\/ssl-setup$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("SSL & HTTPS Setup");
});

test("the dropdown works from the keyboard", async ({ page }) => {
  await gotoHydrated(page, "/");
  const toggle = page.getByRole("navigation", { name: "Main" }).getByRole("button", { name: "Services" });
  await toggle.focus();
  await page.keyboard.press("Enter");
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.keyboard.press("Tab");
  await expect(page.locator(":focus")).toHaveText("Email Migration");
  await page.keyboard.press("Escape");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await expect(toggle).toBeFocused();
});

test("/services/{serviceId} redirects by name; unknown goes home", async ({ page }) => {
  await page.goto("/services/735fb258-04e0-45ae-a5a6-b9016cc46f91");
  await expect(page).toHaveURL(/\/services\/data-migration$/);
  await page.goto(`/services/${encodeURIComponent("Per Incident Support")}`);
  await expect(page).toHaveURL(/\/services\/per-incident-support$/);
  await page.goto("/services/does-not-exist");
  await expect(page).toHaveURL(/\/$/);
});

test("section links scroll on the home page, and navigate home first elsewhere", async ({ page }) => {
  await page.goto("/services/ssl-setup");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/#about$/);
  await expect(page.locator("#about")).toBeInViewport();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contact" }).click();
  await expect(page.locator("#contact")).toBeInViewport();
});

test("the header becomes more opaque after 10 px of scroll", async ({ page }) => {
  await page.goto("/");
  const header = page.getByRole("banner");
  await expect(header).toHaveAttribute("data-scrolled", "false");
  await page.evaluate(() => window.scrollTo(0, 11));
  await expect(header).toHaveAttribute("data-scrolled", "true");
  await page.evaluate(() => window.scrollTo(0, 5));
  await expect(header).toHaveAttribute("data-scrolled", "false");
});

test("the mobile menu opens, lists the services, and closes on navigation", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 800 });
  await gotoHydrated(page, "/");
  const open = page.getByRole("button", { name: "Open menu" });
  await open.click();
  const mobile = page.getByRole("navigation", { name: "Mobile" });
  await expect(mobile).toBeVisible();
  await mobile.getByRole("button", { name: "Services" }).click();
  await expect(
    mobile.getByRole("link", { name: /^(Email|SSL|Cloud|Data|Hosting|Backup|Per-Incident)/ }),
  ).toHaveCount(8);
  await mobile.getByRole("link", { name: "Hosting Support" }).click();
  await expect(page).toHaveURL(/\/services\/hosting-support$/);
  await expect(mobile).toBeHidden();
});

test("the site chrome is absent under /client/", async ({ page }) => {
  await page.goto("/client/login");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("banner")).toHaveCount(0);
  await expect(page.getByRole("contentinfo")).toHaveCount(0);
});

test("unknown paths show the 404 page", async ({ page, consoleWatch }) => {
  consoleWatch.allow(/status of 404/);
  const res = await page.goto("/definitely/not/here");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("the home page has no axe violations", async ({ page }) => {
  await page.goto("/");
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
});
