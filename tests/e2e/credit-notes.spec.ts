/**
 * A refund and its credit note in a browser (ADR 0505): the owner refunds part of a client's paid invoice
 * in euros through the back office's form (empty at first, then a confirmation step naming the amount
 * and what follows, Back keeping what was typed, Confirm double-clicked making one refund) and opens
 * the credit note; the client then sees the invoice partially refunded in the list and on its page, the
 * notification in the bell, opens the credit note and downloads its PDF. The same refund with
 * JavaScript off in the owner's browser. The new pages and the confirmation step pass axe.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import { REFUND_ARRIVAL } from "~/features/invoices/invoice-view";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

const PASSWORD = "Str0ng!Passw0rd";

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** The bytes of a download. */
async function bytesOf(download: import("@playwright/test").Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A client registers (the email confirmed through the test hook), signs in and has an invoice paid in euros. */
async function paidInvoiceInEuros(page: Page, name: string) {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  expect((await page.request.post("/api/test-hooks/verify-user", { data: { email } })).status()).toBe(200);
  // Signed in (the first portal page makes the client's record, which orders belong to).
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  const made = await page.request.post("/api/test-hooks/orders", {
    data: { email, status: "paid", amountUsd: 80, currency: "EUR", rate: 0.92 },
  });
  expect(made.status()).toBe(200);
  return ((await made.json()) as { orders: Array<{ invoiceId: string; invoiceNumber: string }> }).orders[0]!;
}

/** The owner signs in, in a browser context of their own. */
async function ownerPage(browser: Browser, baseURL: string | undefined, javaScriptEnabled = true) {
  const context = await browser.newContext({ baseURL, javaScriptEnabled });
  const owner = await context.newPage();
  await owner.goto("/client/login");
  await owner.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await owner.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await owner.getByRole("button", { name: "Sign In" }).click();
  await expect(owner).toHaveURL(/\/admin\/dashboard$/);
  return { context, owner };
}

/**
 * The refund form: it starts empty; "Refund…" leads to the confirmation step (the amount, the credit
 * note, the email), which passes axe; Back brings the form back as typed; Confirm makes the refund.
 */
async function refundTwentyEuros(owner: Page, invoiceId: string, invoiceNumber: string, javaScript: boolean) {
  await owner.goto(`/admin/invoices/${invoiceId}`);
  await expect(owner.getByText("Up to 73,60 € can be refunded")).toBeVisible();
  await expect(owner.getByLabel("Amount (EUR)")).toHaveValue("");
  await owner.getByLabel("Amount (EUR)").fill("20");
  await owner.getByLabel("Reason").fill("Two mailboxes were not needed");
  await owner.getByLabel(/Reference of the transfer back/).fill("SEPA-BACK-0042");
  await owner.getByRole("button", { name: "Refund…" }).click();
  const step = owner.getByTestId("refund-confirmation");
  await expect(
    step.getByRole("heading", { name: `Record 20,00 € of invoice ${invoiceNumber} as sent back by hand?` }),
  ).toBeVisible();
  await expect(step).toContainText("A credit note will be issued and the client emailed.");
  await expect(step).toContainText("20,00 € is recorded as sent back by hand (reference SEPA-BACK-0042).");
  // axe runs as a script in the page: with JavaScript off it cannot, and the markup is the same.
  if (javaScript) await expectNoAxeViolations(owner);
  await step.getByRole("button", { name: "Back" }).click();
  await expect(owner.getByLabel("Amount (EUR)")).toHaveValue("20");
  await expect(owner.getByLabel("Reason")).toHaveValue("Two mailboxes were not needed");
  await expect(owner.getByTestId("refund-row")).toHaveCount(0);
  await owner.getByRole("button", { name: "Refund…" }).click();
  const confirm = owner.getByRole("button", { name: "Confirm the refund of 20,00 €" });
  // A double click (or a resent post) makes one refund: the form's token is spent by the first.
  if (javaScript) await confirm.dblclick();
  else await confirm.click();
  const done = owner.getByRole("status");
  await expect(done).toHaveText(
    new RegExp(`^Refunded 20,00\\s€ of invoice ${invoiceNumber}: credit note CN-\\d{4}-\\d{4,}\\.$`),
  );
  await expect(owner.getByTestId("refund-row")).toHaveCount(1);
  // The form is empty again, for another refund.
  await expect(owner.getByLabel("Amount (EUR)")).toHaveValue("");
  return (await done.textContent())!.match(/CN-\d{4}-\d{4,}/)![0];
}

test("the owner refunds part of a paid invoice; the client sees it partially refunded, the bell, the credit note and its PDF", async ({
  page,
  browser,
  baseURL,
}) => {
  const { invoiceId, invoiceNumber } = await paidInvoiceInEuros(page, "Rita Refund");

  // The owner, in a browser of their own, refunds 20 € of the 73,60 € through the invoice's form.
  const { context: ownerContext, owner } = await ownerPage(browser, baseURL);
  const creditNoteNumber = await refundTwentyEuros(owner, invoiceId, invoiceNumber, true);
  await expect(owner.getByText("Partially refunded", { exact: true })).toBeVisible();
  await expect(owner.getByText("20,00 € of 73,60 € refunded")).toBeVisible();
  await owner.getByRole("link", { name: creditNoteNumber }).click();
  await expect(owner).toHaveURL(/\/admin\/credit-notes\/[0-9a-f-]{36}$/);
  await expect(
    owner.getByRole("heading", { name: `Credit note ${creditNoteNumber}`, level: 1 }),
  ).toBeVisible();
  await expect(owner.getByTestId("credit-note-total")).toHaveText("20,00 €");
  await expect(owner.getByRole("link", { name: `Invoice ${invoiceNumber}` })).toBeVisible();
  await expect(owner.getByRole("link", { name: "Order", exact: true })).toBeVisible();
  await expectNoAxeViolations(owner);
  const ownerDownload = owner.waitForEvent("download");
  await owner.getByRole("link", { name: "Download PDF" }).click();
  const ownerPdf = await ownerDownload;
  expect(ownerPdf.suggestedFilename()).toBe(`${creditNoteNumber}.pdf`);
  expect((await bytesOf(ownerPdf)).subarray(0, 5).toString()).toBe("%PDF-");
  await ownerContext.close();

  // The client's invoice list reads "Partially refunded", with the credit note under its invoice
  // (issue 37, item 3): its number, its invoice, the amount given back, a link to it and its PDF.
  await page.goto("/client/invoices");
  const row = page.locator(`tr[data-invoice-id="${invoiceId}"]`);
  await expect(row.locator("[data-status]")).toHaveText("Partially refunded");
  const noteRow = page.locator("tr[data-credit-note-id]");
  await expect(noteRow).toHaveCount(1);
  await expect(page.locator(`tr[data-invoice-id="${invoiceId}"] + tr[data-credit-note-id]`)).toHaveCount(1);
  await expect(noteRow).toContainText(creditNoteNumber);
  await expect(noteRow).toContainText(`Credit note for ${invoiceNumber}`);
  await expect(noteRow.locator("[data-credit-note-amount]")).toHaveText(/^-20,00\s€$/);
  await expect(noteRow.getByRole("link", { name: `Download PDF of ${creditNoteNumber}` })).toHaveAttribute(
    "href",
    /^\/client\/credit-notes\/[0-9a-f-]{36}\/pdf$/,
  );
  await expect(page.getByRole("region", { name: "Invoice totals" })).toContainText(
    /Paid \(net of refunds\)\$58\.26/,
  );
  await expectNoAxeViolations(page);
  await noteRow.getByRole("link", { name: `View credit note ${creditNoteNumber}` }).click();
  await expect(
    page.getByRole("heading", { name: `Credit note ${creditNoteNumber}`, level: 1 }),
  ).toBeVisible();
  await page.goBack();
  await page.getByLabel(/^Notifications, \d+ unread$/).click();
  const panel = page.locator("details[open]");
  await expect(
    panel.getByRole("link", {
      name: new RegExp(
        `^Refund Issued\\b.*20,00\\s€ of invoice ${invoiceNumber} has been refunded \\(credit note ${creditNoteNumber}\\)\\.`,
      ),
    }),
  ).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.locator("details[open]")).toHaveCount(0);

  // The invoice's page: the badge, the refunded line, its credit note.
  await row.getByRole("link", { name: `View invoice ${invoiceNumber}` }).click();
  await expect(page.getByRole("heading", { name: `Invoice ${invoiceNumber}`, level: 1 })).toBeVisible();
  await expect(page.getByTestId("invoice-status")).toHaveText("Partially refunded");
  await expect(page.getByTestId("invoice-refunded")).toHaveText("20,00 € of 73,60 € refunded");
  await expect(page.getByTestId("invoice-net-paid")).toHaveText("Net paid: 53,60 €");
  await expect(page.getByText(REFUND_ARRIVAL)).toBeVisible();
  await expect(page.getByRole("button", { name: "Pay Now" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // The credit note: its page, then its PDF.
  await page.getByRole("link", { name: `Credit note ${creditNoteNumber}` }).click();
  await expect(page).toHaveURL(/\/client\/credit-notes\/[0-9a-f-]{36}$/);
  await expect(
    page.getByRole("heading", { name: `Credit note ${creditNoteNumber}`, level: 1 }),
  ).toBeVisible();
  const doc = page.locator("#credit-note");
  await expect(doc).toContainText(`for invoice ${invoiceNumber}`);
  await expect(doc).toContainText("Rita Refund");
  await expect(page.getByTestId("credit-note-reason")).toHaveText("Two mailboxes were not needed");
  await expect(page.getByTestId("credit-note-total")).toHaveText("20,00 €");
  await expect(page.getByTestId("credit-note-usd")).toContainText(
    "Total credited in USD: $21.74 at 0.92 EUR per USD",
  );
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expectNoAxeViolations(page);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${creditNoteNumber}.pdf`);
  const pdf = await bytesOf(download);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  expect(pdf.length).toBeGreaterThan(1000);

  // Back to the invoice through the credit note's own link.
  await page.getByRole("link", { name: invoiceNumber, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/client/invoice/${invoiceId}$`));
});

test("with JavaScript off, the refund form, its confirmation step and Back work the same, and make one refund", async ({
  page,
  browser,
  baseURL,
}) => {
  const { invoiceId, invoiceNumber } = await paidInvoiceInEuros(page, "Nora Nojs");
  const { context, owner } = await ownerPage(browser, baseURL, false);
  await refundTwentyEuros(owner, invoiceId, invoiceNumber, false);
  await expect(owner.getByText("20,00 € of 73,60 € refunded")).toBeVisible();
  await context.close();
});
