/**
 * The owner's view of care plans in a browser (issue 38, item 7): on /admin/plans the owner sees the
 * subscribers, the monthly recurring revenue, a renewal due within 30 days and a past-due plan with its
 * decline in words; the dashboard's "Needs attention" links the past-due plan to its unpaid invoice and
 * the revenue chart names recurring revenue in its legend; the client's page lists the plan and the plan
 * period's order page offers no status change. axe finds nothing, and at 1280 and 390 px nothing is
 * off-screen (the tables' first rows on a phone: every cell inside the screen, labelled by its column).
 * The plans are admin-seed.ts's (a renewal in about ten days, a renewal due today declined).
 * PLANS_SCREENSHOTS=<folder> saves the owner's plans page at both widths, to look at.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/**
 * Nothing off-screen at this width: the page does not scroll sideways, and on a phone the first row of
 * each table (a stacked card there) has every cell inside the screen, labelled by its column's header.
 */
async function expectOnScreen(page: Page) {
  const { width } = page.viewportSize()!;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  if (width > 640) return;
  const tables = page.locator("main table.data-table");
  for (let t = 0; t < (await tables.count()); t++) {
    const table = tables.nth(t);
    const head = await table.locator("thead th").allTextContents();
    const cells = table.locator("tbody tr").first().locator("td");
    for (let i = 0; i < head.length; i++) {
      const cell = cells.nth(i);
      const box = (await cell.boundingBox())!;
      const what = `table ${t + 1}, ${head[i]}`;
      expect(box.x, what).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, what).toBeLessThanOrEqual(width);
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth), what).toBe(true);
      expect(await cell.evaluate((el) => getComputedStyle(el, "::before").content), what).toBe(
        JSON.stringify(head[i]),
      );
    }
  }
}

async function screenshot(page: Page, name: string) {
  const folder = process.env.PLANS_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  await page.screenshot({
    path: path.join(folder, `${name}-${page.viewportSize()!.width}.png`),
    fullPage: true,
  });
}

async function signInAsOwner(page: Page) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("the owner sees subscribers, MRR, a renewal due and a past-due plan, on a wide screen and a phone", async ({
  page,
}) => {
  const plans = adminFixtures().carePlans;
  await page.setViewportSize(DESKTOP);
  await signInAsOwner(page);
  await page.goto("/admin/plans");
  await expect(page.getByRole("heading", { name: "Care plans", level: 1 })).toBeVisible();

  const figures = page.getByTestId("plan-figures");
  // Both seeded plans at least (other tests may subscribe meanwhile).
  const subscribers = Number(/Active subscribers(\d+)/.exec((await figures.textContent()) ?? "")?.[1]);
  expect(subscribers).toBeGreaterThanOrEqual(2);
  await expect(figures).toContainText(/Monthly recurring revenue\$[\d,]+\.\d\d/);
  await expect(figures).toContainText("monthly plans at their price, yearly plans at a twelfth of theirs");

  const renewals = page.getByTestId("renewals-due");
  await expect(renewals.getByRole("row").filter({ hasText: plans.renewingClient })).toContainText(
    "Care Essentials",
  );
  const troubled = page
    .getByTestId("troubled-plans")
    .getByRole("row")
    .filter({ hasText: plans.pastDueClient });
  await expect(troubled).toContainText("Payment failed");
  await expect(troubled).toContainText("The card is reported stolen; not retried.");
  await expect(troubled.getByRole("link", { name: /^INV-/ })).toHaveAttribute("href", /^\/admin\/invoices\//);
  await expect(
    page.getByRole("table", { name: "Subscribers" }).getByRole("link", { name: plans.renewingClient }),
  ).toBeVisible();
  await expectOnScreen(page);
  await expectNoAxeViolations(page);
  await screenshot(page, "admin-plans");

  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("troubled-plans")).toContainText(plans.pastDueClient);
  await expectOnScreen(page);
  await expectNoAxeViolations(page);
  await screenshot(page, "admin-plans");
});

test("the dashboard shows the past-due plan and recurring revenue; its order and client pages say it is a plan", async ({
  page,
}) => {
  const plans = adminFixtures().carePlans;
  await page.setViewportSize(DESKTOP);
  await signInAsOwner(page);
  await expect(page.getByTestId("revenue-legend")).toContainText("Recurring (care plans)");
  const attention = page.getByTestId("payment-issues");
  const link = attention.getByRole("link", { name: `Care plan past due: Care Plus, ${plans.pastDueClient}` });
  await expect(link).toBeVisible();
  await expectOnScreen(page);
  await expectNoAxeViolations(page);
  await screenshot(page, "admin-dashboard");
  await page.setViewportSize(PHONE);
  await expectOnScreen(page);
  await page.setViewportSize(DESKTOP);
  await link.click();
  await expect(page).toHaveURL(/\/admin\/invoices\/[0-9a-f-]{36}$/);

  await page.goto(`/admin/orders/${plans.pastDueOrderId}`);
  await expect(page.getByTestId("care-plan-period")).toContainText("a sale, not a job");
  await expect(page.getByRole("heading", { name: "Change status" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.goto(`/admin/clients/${plans.pastDueClientId}`);
  const row = page
    .getByRole("table", { name: "The client's care plans" })
    .getByRole("row")
    .filter({ hasText: "Care Plus" });
  await expect(row).toContainText("Payment failed");
  await expectOnScreen(page);
  await expectNoAxeViolations(page);
  await page.setViewportSize(PHONE);
  await expectOnScreen(page);
});
