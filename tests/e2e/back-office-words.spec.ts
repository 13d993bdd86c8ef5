/**
 * Issue 37, items 8 and 11 in a browser: the quote requests page at 1280 px keeps "Write a quote"
 * inside the viewport; an order row opens its order from anywhere on the row; the audit log reads as
 * sentences; the client's Privacy tab names an unpaid invoice of a completed order before any form,
 * with a Pay button that leads to the payment. axe on each changed page.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, signUp, unique } from "./clients";
import { expect, test } from "./fixtures";

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

async function signInOwner(page: Page) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("at 1280 px the quote requests keep Write a quote on screen; order rows open from anywhere; the audit log reads as sentences", async ({
  browser,
  baseURL,
}) => {
  // A visitor's quote request with a long description and address.
  const visitor = await browser.newPage({ baseURL });
  await visitor.goto("/#quote");
  const form = visitor.locator("#quote form");
  await form.getByLabel("Your Name").fill("Grace Widecolumns");
  await form.getByLabel("Email Address").fill(`a.rather.long.address.for.columns.${unique()}@example.com`);
  await form.getByLabel("Email Migration & Setup").check();
  await form
    .getByLabel("Describe the work")
    .fill("Migrate 400 mailboxes and SharePoint sites to a new tenant, with a cutover weekend. ".repeat(4));
  await form.getByRole("button", { name: "Request a Quote" }).click();
  await expect(visitor.getByRole("heading", { name: "Quote Request Received!" })).toBeVisible();
  await visitor.close();

  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const owner = await context.newPage();
  await signInOwner(owner);
  await owner.goto("/admin/quotes");
  const write = owner.getByRole("link", { name: "Write a quote for Grace Widecolumns" }).first();
  await expect(write).toBeVisible();
  const box = (await write.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  // The page itself never scrolls sideways.
  expect(await owner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
  await expectNoAxeViolations(owner);

  // An order row: a click on its service cell opens the order.
  await owner.goto("/admin/orders");
  const row = owner.locator("tbody tr").first();
  const link = row.locator("[data-row-link]");
  const href = await link.getAttribute("href");
  // The row's link covers the cell (Playwright's click would say the link intercepts it): a plain mouse click.
  const cell = (await row.locator("td").nth(2).boundingBox())!;
  await owner.mouse.click(cell.x + 8, cell.y + 8);
  await expect(owner).toHaveURL(new RegExp(`${href}$`));
  await expectNoAxeViolations(owner);

  await owner.goto("/admin/audit");
  await expect(owner.locator("tbody")).not.toContainText("{");
  await expectNoAxeViolations(owner);
  await context.close();
});

test("the Privacy tab names an unpaid invoice of a completed order before the form, with Pay", async ({
  page,
}) => {
  const email = await signUp(page, "Uma Unpaid");
  const made = await hook<{ orders: Array<{ orderId: string; invoiceNumber: string }> }>(
    page.request,
    "orders",
    {
      email,
      status: "pending",
    },
  );
  const order = made.orders[0]!;
  await hook(page.request, "order-status", { email, orderId: order.orderId, status: "completed" });

  await page.goto("/client/profile?tab=privacy");
  const blockers = page.getByTestId("deletion-blockers");
  await expect(blockers).toContainText("Your account cannot be deleted yet:");
  await expect(blockers).toContainText(`Unpaid invoice ${order.invoiceNumber}`);
  await expect(page.getByRole("button", { name: "Delete my account" })).toHaveCount(0);
  await expect(page.getByTestId("exports-left")).toContainText("3 of 3 downloads left today.");
  await expectNoAxeViolations(page);
  await blockers.getByRole("button", { name: `Pay invoice ${order.invoiceNumber}` }).click();
  // The invoice's checkout (the sandbox's hosted page).
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout/);
});
