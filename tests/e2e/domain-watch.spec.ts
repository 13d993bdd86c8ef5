/**
 * The domain watch in the browser (issue 39): a client adds a domain whose website certificate expires in
 * ten days; the watch checks it (the test hook runs the client's due checks) and the alert arrives in
 * the bell; the notice leads to the domain's page, whose fix opens the SSL purchase naming the alert;
 * once paid, the order's brief starts with the domain and names the alert. The owner sees the domain on
 * the watch, most urgent first, and checks it now. Axe on every page, nothing off-screen at 390 px.
 * With WALK_SCREENSHOTS set to a folder, the domain pages are saved there as domains-<page>-<width>.png.
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, signUp } from "./clients";
import { JOURNEY_DOMAIN } from "./domain-world-setup";
import { expect, test } from "./fixtures";

test.beforeEach(() => test.slow());

const SHOTS = process.env.WALK_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  const before = page.viewportSize();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.resolve(SHOTS, `domains-${name}-${size.width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

/** Axe finds nothing, and at phone width nothing runs off the screen's right edge. */
async function checkPage(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  const before = page.viewportSize();
  await page.setViewportSize(PHONE);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  if (before) await page.setViewportSize(before);
}

test("a client adds a domain, its expiring certificate reaches the bell, and its fix opens the SSL purchase", async ({
  page,
  consoleWatch,
}) => {
  // The refused name below is answered 400, as a form's refusal is.
  consoleWatch.allow(/status of 400 \(Bad Request\)/);
  const email = await signUp(page, "Domain Journey");
  await page.goto("/client/domains");
  await expect(page.getByRole("heading", { name: "Domains", level: 1 })).toBeVisible();
  await checkPage(page);

  // A refused name says why, and keeps the page.
  await page.getByLabel("Domain name").fill("127.0.0.1.nip.io");
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText("Enter the registered domain, nip.io, not 127.0.0.1.nip.io.")).toBeVisible();

  await page.getByLabel("Domain name").fill(JOURNEY_DOMAIN);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(
    page.getByText(`${JOURNEY_DOMAIN} added. Its first check runs within a few minutes.`),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: JOURNEY_DOMAIN })).toBeVisible();

  // The watch checks it (the server's own run may come first: the alert is raised once either way).
  await hook(page.request, "domain-watch", { email });
  const title = `Certificate of ${JOURNEY_DOMAIN} expires in 10 days`;
  // Live: the open page's bell counts it without a reload.
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  await page.getByLabel("Notifications, 1 unread").click();
  const notice = page.locator("details[open]").getByRole("link", { name: new RegExp(title) });
  await expect(notice).toBeVisible();
  await notice.click();
  await expect(page).toHaveURL(/\/client\/domains\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: JOURNEY_DOMAIN, level: 1 })).toBeVisible();
  const alerts = page.getByRole("region", { name: "Open alerts" });
  await expect(alerts.getByText(title)).toBeVisible();
  await expect(page.getByRole("list", { name: `Checks of ${JOURNEY_DOMAIN}` })).toContainText(
    `Website certificate (${JOURNEY_DOMAIN})`,
  );
  await checkPage(page);
  await shoot(page, "domain");

  await alerts.getByRole("link", { name: "Renew and install the certificate" }).click();
  await expect(page).toHaveURL(/\/client\/purchase\/ssl-setup\?alert=/);
  const note = page.getByRole("region", { name: "What this order fixes" });
  await expect(note).toContainText(`For ${JOURNEY_DOMAIN}: ${title}`);
  await checkPage(page);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment/);

  await page.goto("/client/orders");
  await page
    .getByRole("link", { name: /SSL & HTTPS Setup/ })
    .first()
    .click();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  const brief = page.getByRole("region", { name: "Tell us about the job" });
  await expect(brief.getByLabel("Domain name(s)")).toHaveValue(JOURNEY_DOMAIN);
  await expect(brief.getByLabel("Anything else we should know")).toHaveValue(new RegExp(title));
  await checkPage(page);
});

test("the owner sees every domain by urgency, filtered by certificate alerts, and checks one now", async ({
  page,
}) => {
  await page.setViewportSize(DESKTOP);
  const email = await signUp(page, "Domain Owner View");
  await page.goto("/client/domains");
  await page.getByLabel("Domain name").fill(JOURNEY_DOMAIN);
  await page.getByRole("button", { name: "Add domain" }).click();
  await expect(page.getByText(`${JOURNEY_DOMAIN} added.`, { exact: false })).toBeVisible();
  await hook(page.request, "domain-watch", { email });
  await page.context().clearCookies();

  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto("/admin/domains?problem=cert");
  const row = page.getByRole("row", { name: /Domain Owner View/ });
  await expect(row).toContainText(JOURNEY_DOMAIN);
  await expect(row).toContainText("10 days");
  await checkPage(page);
  await shoot(page, "owner");
  await row.getByRole("button", { name: `Check ${JOURNEY_DOMAIN} now` }).click();
  await expect(page.getByText(`${JOURNEY_DOMAIN} checked.`)).toBeVisible();
});
