/**
 * The owner's order page (ADR 0512) in a browser: the brief and the client's message are there, a new
 * message from the client appears without a reload, the owner replies with a PNG and starts the work
 * from the same screen, downloads the file, and the page passes axe and fits a 390 px phone.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

async function signInAsAdmin(page: Page) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

test("the owner reads the brief, replies with a PNG and starts the work on one screen", async ({ page }) => {
  const { briefOrder } = adminFixtures(test.info().repeatEachIndex);
  await signInAsAdmin(page);
  await page.goto(`/admin/orders/${briefOrder.orderId}`);
  await expect(page.getByRole("heading", { name: "Order: Email Migration & Setup", level: 1 })).toBeVisible();

  // The brief's answers and the client's message.
  const brief = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Brief", exact: true }) });
  await expect(brief.getByText("Microsoft 365")).toBeVisible();
  await expect(brief.getByText("Saturday morning CET")).toBeVisible();
  await expect(page.getByText("Brief missing")).toHaveCount(0);
  const messages = page.getByRole("list", { name: "Messages" });
  await expect(messages.getByText("The DNS is at our registrar; tell me what you need.")).toBeVisible();
  await expect(page.locator("[data-live-status]")).toHaveAttribute("data-live-status", "live");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The client writes again: the open page shows it without a reload.
  const hook = await page.request.post("/api/test-hooks/order-message", {
    data: {
      email: briefOrder.clientEmail,
      orderId: briefOrder.orderId,
      body: "One more thing: 7 mailboxes.",
    },
  });
  expect(hook.status()).toBe(200);
  await expect(messages.getByText("One more thing: 7 mailboxes.")).toBeVisible();

  // The reply with a file.
  await page.getByLabel("Reply to the client").fill("Thanks! Here is the cutover plan.");
  await page
    .getByLabel("Attach files")
    .setInputFiles({ name: "cutover-plan.png", mimeType: "image/png", buffer: PNG });
  await page.getByRole("button", { name: "Send reply" }).click();
  await expect(page.getByRole("status")).toHaveText("Message sent.");
  await expect(messages.getByText("Thanks! Here is the cutover plan.")).toBeVisible();
  await expect(page.getByLabel("Reply to the client")).toHaveValue("");
  const download = page.waitForEvent("download");
  await messages.getByRole("link", { name: "cutover-plan.png" }).click();
  expect((await download).suggestedFilename()).toBe("cutover-plan.png");

  // The status, from the same screen.
  await page.getByLabel(/Note to the client/).fill("Work starts today.");
  await page.getByRole("button", { name: "Start work" }).click();
  await expect(page.getByRole("status")).toHaveText("The order is now in progress.");
  // The note box starts empty for the next change; the note is on the timeline (issue 37).
  await expect(page.getByLabel(/Note to the client/)).toHaveValue("");
  const timeline = page.locator("section").filter({ has: page.getByRole("heading", { name: "Timeline" }) });
  await expect(timeline.getByText("Work starts today.")).toBeVisible();
  await expect(page.locator('[data-status="in_progress"]').first()).toHaveText("In Progress");
  await expect(messages.getByText("Thanks! Here is the cutover plan.")).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // On a 390 px phone the page does not scroll sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(messages.getByText("cutover-plan.png")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the owner sees a client's unread message in the inbox and opens its order", async ({ page }) => {
  const { inboxOrder } = adminFixtures(test.info().repeatEachIndex);
  await signInAsAdmin(page);
  const hook = await page.request.post("/api/test-hooks/order-message", {
    data: { email: inboxOrder.clientEmail, orderId: inboxOrder.orderId, body: "Is there any news?" },
  });
  expect(hook.status()).toBe(200);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: /Messages/ })
    .click();
  const unread = page.getByRole("table", { name: "Unread messages on orders" });
  const row = unread.getByRole("row").filter({ hasText: "Is there any news?" });
  await expect(row).toContainText("Bea Brief");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await row.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${inboxOrder.orderId}$`));
  await expect(page.getByRole("list", { name: "Messages" }).getByText("Is there any news?")).toBeVisible();
});
