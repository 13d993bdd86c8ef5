/**
 * Notices that lead somewhere (issue 37, item 5; ADR 0515): a click on a bell notice lands on its
 * object's page and marks it read; "See all notifications" opens the notifications page (axe clean, at
 * 1280 and 390 px), for the client and for the owner.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, signUp, unique } from "./clients";
import { expect, test } from "./fixtures";

interface Made {
  orders: Array<{ orderId: string; invoiceId: string; invoiceNumber: string }>;
}

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** Nothing sticks out to the side at this width. */
async function expectNoSideScroll(page: Page) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

test("a client's bell notice leads to its order and is read; See all opens the notifications page", async ({
  page,
}) => {
  const email = await signUp(page, "Notice Client");
  const made = await hook<Made>(page.request, "orders", { email, status: "pending", amountUsd: 40 });
  const { orderId, invoiceNumber } = made.orders[0]!;
  await hook(page.request, "order-status", { email, orderId, status: "paid" });

  await page.goto("/client/dashboard");
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  await page.getByLabel("Notifications, 1 unread").click();
  const panel = page.locator("details[open]");
  const notice = panel.getByRole("link", {
    name: new RegExp(`Payment Confirmed: Invoice ${invoiceNumber} has been paid\\.`),
  });
  // Its time, in the account's zone (New York by default).
  await expect(notice.locator("time")).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} E[SD]T$/);
  await expectNoAxeViolations(page);
  await notice.click();
  await expect(page).toHaveURL(new RegExp(`/client/orders/${orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.locator("details[open]")).toHaveCount(0);
  // Following it marked it read.
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);
  await expect(page.getByLabel("Notifications", { exact: true })).toBeVisible();

  await page.getByLabel("Notifications", { exact: true }).click();
  await page.locator("details[open]").getByRole("link", { name: "See all notifications" }).click();
  await expect(page).toHaveURL(/\/client\/notifications$/);
  await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
  const list = page.getByRole("region", { name: "All notifications" });
  await expect(list.getByRole("link", { name: /Payment Received/ })).toHaveAttribute(
    "href",
    `/client/orders/${orderId}`,
  );
  await expect(list).toContainText("Showing 1–1 of 1 notifications");
  await expectNoAxeViolations(page);

  // A new notice arrives live on this page too; Mark all read empties the badge.
  await hook(page.request, "orders", { email, status: "pending", announce: true });
  await expect(list.getByRole("link", { name: /New Invoice/ })).toBeVisible();
  await expect(page.getByTestId("notification-badge")).toHaveText("1");
  await page.getByRole("main").getByRole("button", { name: "Mark all read" }).click();
  await expect(page.getByTestId("notification-badge")).toHaveCount(0);

  // On a phone: every notice on the screen, nothing to the side, still axe clean.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(list.getByRole("link", { name: /Payment Received/ })).toBeInViewport();
  await expectNoSideScroll(page);
  await expectNoAxeViolations(page);
});

test("the owner's bell notice of a quote request leads to writing its quote; See all opens the owner's page", async ({
  page,
  browser,
}) => {
  const name = `Quinn Asker ${unique()}`;
  await signUp(page, name);
  await page.goto("/client/quotes/new");
  await page.getByLabel("Describe the work").fill(`Move 12 mailboxes for ${name}.`);
  await page.getByRole("button", { name: "Request a Quote" }).click();
  await expect(page.getByRole("heading", { name: "Quote Request Received!" })).toBeVisible();

  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  try {
    await owner.goto("/client/login");
    await owner.getByLabel("Email Address").fill(adminFixtures().adminEmail);
    await owner.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
    await owner.getByRole("button", { name: "Sign In" }).click();
    await expect(owner).toHaveURL(/\/admin\/dashboard$/);

    await owner.getByLabel(/^Notifications/).click();
    const notice = owner
      .locator("details[open]")
      .getByRole("link", { name: new RegExp(`New Quote Request.*${name} asked for a quote`) });
    await expect(notice.locator("time")).toHaveText(/ UTC$/);
    await notice.click();
    await expect(owner).toHaveURL(/\/admin\/quotes\/new\?request=[0-9a-f-]{36}$/);
    await expect(owner.getByRole("heading", { level: 1 })).toContainText(name);

    await owner.getByLabel(/^Notifications/).click();
    await owner.locator("details[open]").getByRole("link", { name: "See all notifications" }).click();
    await expect(owner).toHaveURL(/\/admin\/notifications$/);
    const list = owner.getByRole("region", { name: "All notifications" });
    await expect(list.getByRole("link", { name: new RegExp(`${name} asked for a quote`) })).toBeVisible();
    await expectNoAxeViolations(owner);
    await owner.setViewportSize({ width: 390, height: 844 });
    await expectNoSideScroll(owner);
    await expectNoAxeViolations(owner);
  } finally {
    await ownerContext.close();
  }
});
