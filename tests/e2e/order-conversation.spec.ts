/**
 * The conversation on an order between two people at once (ADR 0512): the client and the owner each
 * have the order's page open in their own browser; a message with a file goes each way and appears on
 * the other side's open page without a reload, and each side downloads the other's file.
 */
import type { Page } from "@playwright/test";
import { SAMPLE_PDF } from "~/features/testing/sample-files";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, PASSWORD } from "./clients";
import { expect, test } from "./fixtures";

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

async function signIn(page: Page, email: string, password: string, landing: RegExp) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(landing);
}

async function downloaded(page: Page, link: ReturnType<Page["getByRole"]>): Promise<Uint8Array> {
  const downloading = page.waitForEvent("download");
  await link.click();
  const stream = await (await downloading).createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

test("client and owner talk on an order with files, each page updating live", async ({ page, browser }) => {
  // The client: registered in the page, confirmed through the hook, with a paid order.
  const email = `two.sides.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill("Tess Twosides");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  await hook(page.request, "verify-user", { email });
  await signIn(page, email, PASSWORD, /\/client\/dashboard$/);
  const made = await hook<{ orders: Array<{ orderId: string }> }>(page.request, "orders", {
    email,
    status: "paid",
    amountUsd: 40,
  });
  const { orderId } = made.orders[0]!;

  // The owner, in a browser of their own.
  const ownerContext = await browser.newContext();
  try {
    const owner = await ownerContext.newPage();
    await signIn(owner, adminFixtures().adminEmail, FIXTURE_PASSWORD, /\/admin\/dashboard$/);

    await page.goto(`/client/orders/${orderId}`);
    await owner.goto(`/admin/orders/${orderId}`);
    await expect(page.locator("[data-live-status]")).toHaveText("Live");
    await expect(owner.locator("[data-live-status]")).toHaveAttribute("data-live-status", "live");
    const clientThread = page.getByRole("region", { name: "Conversation" }).getByRole("list", {
      name: "Messages",
    });
    const ownerThread = owner.getByRole("list", { name: "Messages" });

    // Client → owner, with a PDF.
    const conversation = page.getByRole("region", { name: "Conversation" });
    await conversation.getByLabel("Your message").fill("Here is the mailbox list.");
    await conversation
      .getByLabel("Attach files (optional)")
      .setInputFiles({ name: "mailboxes.pdf", mimeType: "application/pdf", buffer: Buffer.from(SAMPLE_PDF) });
    await conversation.getByRole("button", { name: "Send message" }).click();
    await expect(conversation.getByText("Message sent.")).toBeVisible();
    await expect(ownerThread.getByText("Here is the mailbox list.")).toBeVisible();
    expect(await downloaded(owner, ownerThread.getByRole("link", { name: "mailboxes.pdf" }))).toEqual(
      SAMPLE_PDF,
    );

    // Owner → client, with a PNG.
    await owner.getByLabel("Reply to the client").fill("Thanks, the plan is attached.");
    await owner
      .getByLabel("Attach files")
      .setInputFiles({ name: "plan.png", mimeType: "image/png", buffer: PNG });
    await owner.getByRole("button", { name: "Send reply" }).click();
    await expect(owner.getByRole("status")).toHaveText("Message sent.");
    await expect(clientThread.getByText("Thanks, the plan is attached.")).toBeVisible();
    expect(await downloaded(page, clientThread.getByRole("link", { name: "plan.png" }))).toEqual(
      new Uint8Array(PNG),
    );

    // The owner starts the work; the client's timeline follows without a reload.
    await owner.getByRole("button", { name: "Start work" }).click();
    await expect(owner.getByRole("status")).toHaveText("The order is now in progress.");
    const progress = page.getByRole("region", { name: "Progress" });
    await expect(progress.locator('[aria-current="step"]')).toContainText("In progress");
  } finally {
    await ownerContext.close();
  }
});
