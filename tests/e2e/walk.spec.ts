/**
 * Issue 37's walk in a browser, as a new client and as the owner: the client buys SSL ($10.00) through
 * the purchase page and the sandbox; the owner refunds $4.00 of it (with the confirmation step) and
 * sends a $305.00 quote with a 50% deposit; the client signs it with their full name and pays the
 * $152.50 deposit. Then every page that shows what was paid says the same $158.50 (net of refunds),
 * the bell's notices are links to their objects, and the deposit's order says "Deposit paid … of …".
 * With WALK_SCREENSHOTS set to a folder, full-page screenshots of each page at 1280 and 390 px are
 * saved there as walk-<who>-<page>-<width>.png (docs/screenshots/, linked from the README).
 */
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { signUp } from "./clients";
import { expect, test } from "./fixtures";

/** $10.00 − $4.00 refunded + $152.50 deposit. */
const NET_PAID = "$158.50";
const SHOTS = process.env.WALK_SCREENSHOTS;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** With WALK_SCREENSHOTS, the page at both widths (full page), then back to the desktop width. */
async function shoot(page: Page, who: "client" | "owner", name: string) {
  if (!SHOTS) return;
  // The live indicator has connected (a screenshot does not catch it "Offline" on the way).
  await expect(page.getByText("Offline", { exact: true })).toHaveCount(0);
  // From the top: a sticky header would otherwise be drawn where the page was scrolled to.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.resolve(SHOTS, `walk-${who}-${name}-${size.width}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize(WIDTHS[0]!);
}

/** A StatCard's figure: the paragraph after its label. */
function statFigure(page: Page, label: string) {
  return page
    .locator("p", { hasText: new RegExp(`^${label.replace(/[()]/g, "\\$&")}$`) })
    .locator("xpath=following-sibling::p[1]");
}

/** Every notice of the open bell is a link to an order, invoice, quote or credit note of this side. */
async function expectBellNoticesAreLinks(page: Page, side: "client" | "admin") {
  await page.getByLabel(/^Notifications/).click();
  const panel = page.locator("details[open]");
  const items = panel.locator("ul > li");
  await expect(items.first()).toBeVisible();
  const count = await items.count();
  const object = new RegExp(
    `^/${side}/(orders|invoices?|quotes(/new\\?request=)?|credit-notes)/?[0-9a-f-]{36}$`,
  );
  for (let i = 0; i < count; i++) {
    await expect(items.nth(i).getByRole("link").first()).toHaveAttribute("href", object);
  }
  return panel;
}

/**
 * Follows an unread notice and waits for it to be marked read (its fetcher done), so that the next
 * page load does not cut that request short.
 */
async function followNotice(page: Page, notice: Locator) {
  const unread = async () => {
    const label = (await page.getByLabel(/^Notifications/).getAttribute("aria-label")) ?? "";
    return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
  };
  const before = await unread();
  await notice.click();
  await expect.poll(unread).toBeLessThan(before);
}

test("the walk: buy, refund part, a quote's deposit; every page says the same net paid, notices lead somewhere", async ({
  page,
  browser,
  baseURL,
}) => {
  // Two browsers, two sandbox payments, a refund and a quote: three times the usual time.
  test.slow();
  // A plain name, as in the screenshots; the email is unique (signUp).
  const name = "Wendy Walker";
  const email = await signUp(page, name);

  // 1. SSL through the purchase page and the sandbox; the thank-you page.
  await page.goto("/client/purchase/ssl-setup?package=single&currency=USD");
  await expect(page.getByTestId("summary-total")).toHaveText("$10.00");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=10$/);
  const sslOrderId = new URL(page.url()).searchParams.get("order_id")!;
  await expect(page.getByTestId("payment-amount")).toHaveText("$10.00");
  const sslInvoice = page.getByTestId("payment-facts").getByRole("link", { name: /^INV-\d{4}-\d{4,}$/ });
  const sslInvoiceNumber = (await sslInvoice.textContent())!;
  const sslInvoiceId = /([0-9a-f-]{36})$/.exec((await sslInvoice.getAttribute("href"))!)![1]!;
  await shoot(page, "client", "thank-you");

  // The client asks for a quote (the owner's quote requests list it).
  await page.goto("/client/quotes/new");
  await page.getByLabel("Describe the work").fill("Move our website and its database to a new host.");
  await page.getByRole("button", { name: "Request a Quote" }).click();
  await expect(page.getByRole("heading", { name: "Quote Request Received!" })).toBeVisible();

  // 2. The owner, in a browser of their own.
  const ownerContext = await browser.newContext({ baseURL });
  const owner = await ownerContext.newPage();
  try {
    await owner.goto("/client/login");
    await owner.getByLabel("Email Address").fill(adminFixtures().adminEmail);
    await owner.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
    await owner.getByRole("button", { name: "Sign In" }).click();
    await expect(owner).toHaveURL(/\/admin\/dashboard$/);

    // A refund of $4.00 through the invoice's form and its confirmation step.
    await owner.goto(`/admin/invoices/${sslInvoiceId}`);
    await owner.getByLabel("Amount (USD)").fill("4");
    await owner.getByLabel("Reason").fill("The certificate was installed on one server, not two");
    await owner.getByRole("button", { name: "Refund…" }).click();
    const step = owner.getByTestId("refund-confirmation");
    await expect(step.getByRole("heading", { level: 2 })).toHaveText(
      `Refund $4.00 of invoice ${sslInvoiceNumber} to the client's card?`,
    );
    await step.getByRole("button", { name: "Confirm the refund of $4.00" }).click();
    // The sandbox confirms it through its webhook: the credit note follows.
    await expect(async () => {
      await owner.reload();
      await expect(owner.getByTestId("refund-row").getByRole("link", { name: /^CN-/ })).toBeVisible({
        timeout: 1000,
      });
    }).toPass();
    await expect(owner.getByLabel("Amount (USD)")).toHaveValue("");

    // The quote: written from the client's request, $305.00 with a 50% deposit.
    await owner.goto("/admin/quotes");
    const request = owner.getByRole("row").filter({ hasText: email });
    await expect(request).toBeVisible();
    // Write a quote is on screen at 1280 px (issue 37, item 8: it was off the right edge).
    await request.getByRole("link", { name: "Write a quote" }).scrollIntoViewIfNeeded();
    await expect(request.getByRole("link", { name: "Write a quote" })).toBeInViewport({ ratio: 1 });
    await shoot(owner, "owner", "quote-requests");
    await request.getByRole("link", { name: "Write a quote" }).click();
    await expect(owner.getByLabel("Recipient's email")).toHaveValue(email);
    const line = owner.getByRole("group", { name: "Line 1" });
    await line.getByLabel("Description").fill("Website migration");
    await line.getByLabel("Quantity").fill("1");
    await line.getByLabel("Unit price in USD").fill("305.00");
    await owner.getByLabel("Deposit in percent (optional)").fill("50");
    await owner.getByLabel("Terms the client accepts").fill("The balance is due when the site is live.");
    // Previewed, then sent (issue 37, item 9).
    await owner.getByRole("button", { name: "Preview and send" }).click();
    await owner.getByRole("button", { name: `Send the quote to ${email}` }).click();
    await expect(owner.getByRole("status")).toHaveText(/^Quote Q-\d{4}-\d{4,} was sent to /);
    const quoteId = /\/admin\/quotes\/([0-9a-f-]{36})/.exec(owner.url())![1]!;

    // The client accepts, signing with their full name, and pays the deposit.
    await page.goto(`/client/quotes/${quoteId}`);
    await expect(page.getByTestId("quote-deposit")).toHaveText("$152.50");
    await page.getByLabel("I accept the terms above").check();
    await page.getByLabel("Your full name (signature)").fill(name);
    await page.getByRole("button", { name: "Accept and pay the deposit" }).click();
    await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
    await expect(page.getByTestId("sandbox-amount")).toContainText("$152.50");
    await page.getByRole("button", { name: "Pay" }).click();
    await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=152\.5$/);
    const depositOrderId = new URL(page.url()).searchParams.get("order_id")!;
    await expect(page.getByTestId("payment-amount")).toHaveText("$152.50");

    // 3. One net-paid figure everywhere.
    await page.goto("/client/dashboard");
    await expect(statFigure(page, "Total Spent")).toHaveText(NET_PAID);
    await shoot(page, "client", "dashboard");

    await page.goto("/client/orders");
    await expect(statFigure(page, "Total Spent")).toHaveText(NET_PAID);
    await shoot(page, "client", "orders");

    await page.goto("/client/invoices");
    await expect(statFigure(page, "Paid (net of refunds)")).toHaveText(NET_PAID);
    await expect(page.locator("tr[data-credit-note-id]")).toContainText(
      `Credit note for ${sslInvoiceNumber}`,
    );
    await shoot(page, "client", "invoices");

    await page.goto(`/client/invoice/${sslInvoiceId}`);
    await expect(page.getByTestId("invoice-net-paid")).toHaveText("Net paid: $6.00");
    await shoot(page, "client", "refunded-invoice");

    // The order pages' money lines: $6.00 net of the SSL order, $152.50 of the quote's.
    await page.goto(`/client/orders/${sslOrderId}`);
    const sslDetails = page.getByRole("region", { name: "Order details" });
    await expect(sslDetails.locator('[data-money="net-paid"] dd')).toHaveText("$6.00");
    await expect(sslDetails.locator('[data-money="refunded"] dd')).toHaveText("$4.00");

    await page.goto(`/client/orders/${depositOrderId}`);
    const depositDetails = page.getByRole("region", { name: "Order details" });
    await expect(depositDetails.getByTestId("order-payment")).toHaveText("Deposit paid $152.50 of $305.00");
    await expect(depositDetails.locator('[data-money="paid"] dd')).toHaveText("$152.50");
    await shoot(page, "client", "deposit-order");

    // The owner's client page: the same figure.
    await owner.goto(`/admin/orders/${sslOrderId}`);
    await expect(owner.getByRole("link", { name: `${name} (${email})` })).toBeVisible();
    await shoot(owner, "owner", "order");
    await owner.getByRole("link", { name: `${name} (${email})` }).click();
    await expect(owner).toHaveURL(/\/admin\/clients\/[\w-]+$/);
    await expect(
      owner.locator("dt", { hasText: /^Paid \(net of refunds\)$/ }).locator("xpath=following-sibling::dd[1]"),
    ).toHaveText(NET_PAID);
    await shoot(owner, "owner", "client");

    // The bells: every notice a link to its object; one is followed.
    const panel = await expectBellNoticesAreLinks(page, "client");
    await followNotice(page, panel.getByRole("link", { name: /^Refund Issued/ }));
    await expect(page).toHaveURL(/\/client\/(credit-notes|invoice)\/[0-9a-f-]{36}$/);
    await page.goto("/client/notifications");
    await expect(page.getByRole("heading", { name: "Notifications", level: 1 })).toBeVisible();
    await shoot(page, "client", "notifications");

    await owner.goto("/admin/dashboard");
    const ownerPanel = await expectBellNoticesAreLinks(owner, "admin");
    await followNotice(owner, ownerPanel.getByRole("link", { name: new RegExp(name) }).first());
    await expect(owner).toHaveURL(/\/admin\/(orders|quotes|invoices)\//);
    await owner.goto("/admin/dashboard");
    await shoot(owner, "owner", "dashboard");
    await owner.goto("/admin/audit");
    // The newest entry, the client's signature (a long address in "Who"): every cell on screen at
    // 1280 px, the sentence not squeezed to a letter a line.
    const entry = owner.locator("tbody tr").first();
    await expect(entry).toContainText(`Quote accepted — signed: ${name}`);
    for (const cell of await entry.locator("td").all()) await expect(cell).toBeInViewport({ ratio: 1 });
    expect((await entry.locator("td").nth(2).boundingBox())!.width).toBeGreaterThan(200);
    await shoot(owner, "owner", "audit");
  } finally {
    await ownerContext.close();
  }

  await page.goto("/client/profile");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await shoot(page, "client", "profile");
});
