/**
 * An order's page in the browser (ADR 0512): the client opens it from the list, answers the brief
 * (the form's errors first), sends a message with a PDF, sees it in the thread, downloads it; a file
 * over 10 MB is refused before anything is sent; the owner's status change shows without a reload; axe
 * finds nothing, and at 390 px nothing scrolls sideways.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { SAMPLE_PDF } from "~/features/testing/sample-files";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

test("a client answers an order's brief, sends a PDF, sees it in the thread and downloads it", async ({
  page,
  consoleWatch,
}) => {
  // The brief's refused answers come back with a 400, as every form's do.
  consoleWatch.allow(/status of 400/);
  const email = await signUp(page, "Order Page Client");
  const made = await hook<{ orders: Array<{ orderId: string }> }>(page.request, "orders", {
    email,
    status: "paid",
    amountUsd: 40,
  });
  const { orderId } = made.orders[0]!;

  // From the list, where the order waits for the client's details.
  await page.goto("/client/orders");
  const row = page.locator(`tr[data-order-id="${orderId}"]`);
  await expect(row).toContainText("Waiting for your details");
  await row.getByRole("link", { name: /^Email Migration .*open the order/ }).click();
  await expect(page).toHaveURL(new RegExp(`/client/orders/${orderId}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Email Migration & Setup");
  await expect(page.locator("[data-live-status]")).toHaveText("Live");
  const progress = page.getByRole("region", { name: "Progress" });
  await expect(progress.locator('[aria-current="step"]')).toContainText("Paid");
  await expectNoAxeViolations(page);

  // The brief: refused answers each say so beside their field, then it is sent.
  const brief = page.getByRole("region", { name: "Tell us about the job" });
  await brief.getByRole("button", { name: "Send details" }).click();
  await expect(brief.getByText('Please answer "Current email provider".')).toBeVisible();
  await expect(brief.getByLabel("Current email provider")).toHaveAttribute("aria-invalid", "true");
  await brief.getByLabel("Current email provider").fill("GoDaddy cPanel");
  await brief.getByLabel("New email provider").fill("Google Workspace");
  await brief.getByLabel("Domain name(s)").fill("example.com\nexample.org");
  await brief.getByLabel("Number of mailboxes").fill("12");
  await brief.getByLabel("Preferred cutover window").fill("Saturday morning CET");
  await brief.getByRole("button", { name: "Send details" }).click();
  await expect(page.getByText("Thank you: your details are with us.")).toBeVisible();
  const answered = page.getByRole("region", { name: "Your details" });
  await expect(answered).toContainText("GoDaddy cPanel");
  await expect(page.getByText("Waiting for your details")).toHaveCount(0);

  // A file over 10 MB is refused in the browser: nothing is sent.
  const conversation = page.getByRole("region", { name: "Conversation" });
  const message = conversation.getByLabel("Your message");
  const files = conversation.getByLabel("Attach files (optional)");
  await message.fill("A scan that is far too big.");
  await files.setInputFiles({
    name: "huge-scan.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.alloc(10 * 1024 * 1024 + 1),
  });
  let posted = false;
  page.on("request", (r) => {
    if (r.method() === "POST") posted = true;
  });
  await conversation.getByRole("button", { name: "Send message" }).click();
  await expect(conversation.getByText("huge-scan.pdf is larger than 10 MB.")).toBeVisible();
  expect(posted).toBe(false);

  // A message with a PDF and a link.
  await message.fill("The export is ready: https://example.com/export?run=7. Thanks!");
  await files.setInputFiles({
    name: "mailbox-export.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(SAMPLE_PDF),
  });
  await conversation.getByRole("button", { name: "Send message" }).click();
  await expect(conversation.getByText("Message sent.")).toBeVisible();
  const thread = conversation.getByRole("list", { name: "Messages" });
  await expect(thread).toContainText("The export is ready:");
  const link = thread.getByRole("link", { name: "https://example.com/export?run=7" });
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(message).toHaveValue("");

  // The file downloads with its name and bytes.
  const downloading = page.waitForEvent("download");
  await thread.getByRole("link", { name: "mailbox-export.pdf" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe("mailbox-export.pdf");
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(new Uint8Array(Buffer.concat(chunks))).toEqual(SAMPLE_PDF);
  // The notice stays, though the post's own live event has reloaded the page's data since.
  await expect(conversation.getByText("Message sent.")).toBeVisible();
  await expectNoAxeViolations(page);

  // The owner starts the work: the timeline moves without a reload.
  await hook(page.request, "order-status", { email, orderId, status: "in_progress" });
  await expect(progress.locator('[aria-current="step"]')).toContainText("In progress");
  // In the client's timezone: never saved, so New York's (ADR 0521).
  await expect(progress.locator('[data-step="in_progress"]')).toContainText(/\d\d:\d\d E[SD]T/);

  // On a phone the page does not scroll sideways, long link and file name included.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(thread).toContainText("The export is ready:");
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  await expectNoAxeViolations(page);
});

test("another client's order is not found", async ({ page, browser }) => {
  const email = await signUp(page, "Owner Of Order");
  const made = await hook<{ orders: Array<{ orderId: string }> }>(page.request, "orders", {
    email,
    status: "paid",
  });
  const { orderId } = made.orders[0]!;
  const other = await browser.newContext({
    baseURL: process.env.PORTICO_E2E_URL,
    extraHTTPHeaders: { "x-forwarded-for": "127.202.0.1" },
  });
  try {
    const stranger = await other.newPage();
    await signUp(stranger, "Curious Stranger");
    const res = await stranger.goto(`/client/orders/${orderId}`);
    expect(res?.status()).toBe(404);
    await expect(stranger.getByRole("heading", { name: "Order Not Found" })).toBeVisible();
    await expectNoAxeViolations(stranger);
  } finally {
    await other.close();
  }
});
