import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

async function signInAsAdmin(page: Page) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("an admin signs in on the login page, lands on the dashboard and completes a client's order", async ({
  page,
}) => {
  const { completeOrder } = adminFixtures(test.info().repeatEachIndex);
  await signInAsAdmin(page);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Revenue per month" })).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Back office" });
  for (const label of ["Dashboard", "Orders", "Invoices", "Messages", "Clients", "Catalogue", "Audit log"]) {
    await expect(nav.getByRole("link", { name: label })).toBeVisible();
  }
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await nav.getByRole("link", { name: "Orders" }).click();
  await page.getByLabel(/Search by client/).fill(completeOrder.clientEmail);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=e2e-complete/);
  await page
    .getByRole("row")
    .filter({ hasText: completeOrder.clientEmail })
    .getByRole("link")
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${completeOrder.orderId}$`));
  await expect(page.locator('[data-status="in_progress"]').first()).toHaveText("In Progress");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByLabel(/Note to the client/).fill("All done: your backups run nightly now.");
  await page.getByRole("button", { name: "Mark completed" }).click();
  await expect(page.getByRole("status")).toHaveText("The order is now completed.");
  await expect(page.locator('[data-status="completed"]').first()).toHaveText("Completed");
  await expect(page.getByText("This order is completed: its status is final.")).toBeVisible();
  await expect(
    page.getByText(/Status changed from In Progress to Completed.* by e2e-admin@example\.com/),
  ).toBeVisible();

  // The client was emailed (captured mail), and the audit log has the change.
  await page.goto("/dev/mail");
  await expect(page.getByText(/Your order is completed/).first()).toBeVisible();
  await page.goto("/admin/audit?entity=order");
  await expect(page.getByRole("row").filter({ hasText: completeOrder.orderId })).toContainText(
    "Status changed from In Progress to Completed",
  );
});

test("an admin marks an invoice paid by bank transfer", async ({ page }) => {
  const { unpaidInvoice } = adminFixtures(test.info().repeatEachIndex);
  await signInAsAdmin(page);
  await page.goto("/admin/invoices?status=outstanding");
  await page.getByRole("link", { name: unpaidInvoice.invoiceNumber }).click();
  await expect(page.getByRole("heading", { name: `Invoice ${unpaidInvoice.invoiceNumber}` })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByLabel("Bank transfer reference").fill("SEPA-E2E-4711");
  await page.getByRole("button", { name: "Mark paid" }).click();
  await expect(page.getByRole("status")).toHaveText(`Invoice ${unpaidInvoice.invoiceNumber} is marked paid.`);
  await expect(page.getByText("Bank transfer: SEPA-E2E-4711", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: "Mark paid" })).toHaveCount(0);
  await page.goto("/admin/invoices?status=paid");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await expect(page.getByRole("row").filter({ hasText: unpaidInvoice.invoiceNumber })).toContainText("Paid");
});

test("a catalogue price change shows on the service page at once", async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto("/admin/catalogue");
  await page.getByRole("link", { name: "Cloud Suite Management" }).click();
  const price = page.getByLabel(/price \(USD\)/).first();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await price.fill("31.50");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toContainText("is saved");
  await expect(price).toHaveValue("31.5");

  await page.goto("/services/cloud-management");
  await expect(page.locator("[data-price-usd='31.5']").first()).toBeVisible();
});

test("a visitor and a client get the 404 page from the back office", async ({ page, consoleWatch }) => {
  consoleWatch.allow(/404/);
  const response = await page.goto("/admin/orders");
  expect(response?.status()).toBe(404);
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().unpaidInvoice.clientEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  expect((await page.goto("/admin/dashboard"))?.status()).toBe(404);
});
