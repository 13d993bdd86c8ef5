import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { PDFParse } from "pdf-parse";
import { expect, test } from "./fixtures";

const PASSWORD = "Str0ng!Passw0rd";
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;
const PURCHASE = "/client/purchase/email-migration?package=basic&currency=USD";

// Each test is a whole journey (register, verify, sign in, buy, pay): give it three times the usual time.
test.beforeEach(() => test.slow());

async function registerAndVerify(page: Page, name: string, email: string) {
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  // The verification link from the captured mailbox.
  await page.goto("/dev/mail");
  const row = page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: /Confirm your email address/ });
  await row.first().getByRole("link").click();
  const href = await page
    .frameLocator('iframe[title="HTML version"]')
    .getByRole("link", { name: "Verify My Email" })
    .getAttribute("href");
  await page.goto(href!);
  await expect(page).toHaveURL(/\/client\/login\?verified=true$/);
}

async function signInFromPurchasePage(page: Page, email: string) {
  await page.goto(PURCHASE);
  await expect(page.getByRole("button", { name: "Login to Purchase" })).toBeDisabled();
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/client\/login\?redirectTo=/);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  // Back on the purchase page, signed in.
  await expect(page).toHaveURL(new RegExp(`${PURCHASE.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeEnabled();
}

test("buys 20 mailboxes with the sandbox provider: checkout, pay, thank-you, paid invoice and its PDF", async ({
  page,
}) => {
  const email = `buyer.${unique()}@example.com`;
  await page.goto(PURCHASE);
  await expect(page.getByRole("heading", { name: "Purchase Email Migration & Setup" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Services" })).toHaveAttribute(
    "href",
    "/client/services",
  );
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await registerAndVerify(page, "Grace Buyer", email);
  await signInFromPurchasePage(page, email);

  // The quantity selector's rules: − disabled at the minimum, + steps, typed values within bounds.
  const quantity = page.getByRole("spinbutton", { name: "Number of Mailboxes" });
  const minus = page.getByRole("button", { name: "Decrease number of mailboxes" });
  const plus = page.getByRole("button", { name: "Increase number of mailboxes" });
  await expect(minus).toBeDisabled();
  await plus.click();
  await expect(page.getByTestId("summary-quantity")).toHaveText("2");
  await expect(page.getByTestId("summary-total")).toHaveText("$8.00");
  await quantity.fill("5000");
  await expect(page.getByTestId("summary-quantity")).toHaveText("2");
  await quantity.fill("20");
  await expect(page.getByTestId("summary-quantity")).toHaveText("20");
  await expect(page.getByTestId("summary-total")).toHaveText("$80.00");
  await expect(minus).toBeEnabled();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await expect(page.getByRole("heading", { name: /^Pay / })).toBeVisible();
  await expect(page.getByText("Email Migration & Setup — Per Mailbox × 20")).toBeVisible();
  await expect(page.getByTestId("sandbox-amount")).toContainText("$80.00");
  await page.getByRole("button", { name: "Pay" }).click();

  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=80$/);

  await page.goto("/client/invoice/latest");
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
  await expect(page.getByTestId("invoice-total")).toHaveText("$80.00");
  const number = (await page.getByRole("heading", { level: 1 }).textContent())!.replace("Invoice ", "");
  expect(number).toMatch(/^INV-\d{4}-\d{4,}$/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download PDF" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const parser = new PDFParse({ data: new Uint8Array(readFileSync((await download.path())!)) });
  const { text } = await parser.getText();
  await parser.destroy();
  expect(text).toContain(number);
  expect(text).toContain("$80.00");
});

test("cancelling at the checkout returns to the purchase page and leaves the order pending", async ({
  page,
}) => {
  const email = `canceller.${unique()}@example.com`;
  await registerAndVerify(page, "Carl Cancel", email);
  await signInFromPurchasePage(page, email);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await expect(page.getByTestId("sandbox-amount")).toContainText("$4.00");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(new RegExp(`${PURCHASE.replace(/[?]/g, "\\?")}$`));
  await expect(page.getByRole("heading", { name: "Purchase Email Migration & Setup" })).toBeVisible();

  await page.goto("/client/invoice/latest");
  await expect(page.getByTestId("invoice-status")).toHaveText("Sent");
  await expect(page.getByTestId("invoice-total")).toHaveText("$4.00");

  // Later, Pay Now on the invoice starts a new checkout for the same invoice.
  const invoiceUrl = page.url();
  await page.getByRole("button", { name: "Pay Now" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=4$/);
  await page.goto(invoiceUrl);
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
  await expect(page.getByRole("button", { name: "Pay Now" })).toHaveCount(0);
});

test("buys without JavaScript: the form posts to the server, the sandbox page works, thank-you follows", async ({
  browser,
  extraHTTPHeaders,
}) => {
  const email = `nojs.${unique()}@example.com`;
  const setup = await browser.newPage({ extraHTTPHeaders });
  await registerAndVerify(setup, "Nora NoScript", email);
  await setup.close();

  const context = await browser.newContext({ javaScriptEnabled: false, extraHTTPHeaders });
  const page = await context.newPage();
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);

  await page.goto("/client/purchase/per-incident-support?currency=USD");
  await page.getByRole("spinbutton", { name: "Number of Incidents" }).fill("3");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await expect(page.getByTestId("sandbox-amount")).toContainText("$60.00");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=60$/);
  await page.goto("/client/invoice/latest");
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
  await context.close();
});

test("typing an out-of-range or non-numeric quantity keeps the page and follows the quantity rules", async ({
  page,
}) => {
  // Signed in through the register form and the test hook that confirms the address (TEST_HOOKS=true).
  const email = `typist.${unique()}@example.com`;
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill("Tess Typist");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  expect((await page.request.post("/api/test-hooks/verify-user", { data: { email } })).status()).toBe(200);
  await signInFromPurchasePage(page, email);

  const quantity = page.getByRole("spinbutton", { name: "Number of Mailboxes" });
  const summary = page.getByTestId("summary-quantity");
  /** Types key by key into the field (not `fill`, which sends one input event), then leaves it with Tab. */
  const typeAndLeave = async (text: string) => {
    await quantity.click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.type(text);
    await page.keyboard.press("Tab");
  };

  // 1000 is the maximum: taken.
  await typeAndLeave("1000");
  await expect(summary).toHaveText("1000");
  await expect(quantity).toHaveValue("1000");
  // Key by key the field reads 1, 10, 100 (all taken), then 1001: out of range, so that change is ignored
  // and the last valid value stays; leaving the field shows it there too.
  await typeAndLeave("1001");
  await expect(page.getByRole("heading", { name: "Purchase Email Migration & Setup" })).toBeVisible();
  await expect(summary).toHaveText("100");
  await expect(quantity).toHaveValue("100");
  // Appending a digit to 1000 (10001) is out of range too: 1000 stays.
  await typeAndLeave("1000");
  await quantity.click();
  await page.keyboard.press("End");
  await page.keyboard.type("1");
  await page.keyboard.press("Tab");
  await expect(summary).toHaveText("1000");
  await expect(quantity).toHaveValue("1000");
  // Letters are not a number (a number field drops them, leaving it empty): back to the minimum.
  await typeAndLeave("abc");
  await expect(summary).toHaveText("1");
  await expect(quantity).toHaveValue("1");
  await expect(page.getByRole("heading", { name: "Purchase Email Migration & Setup" })).toBeVisible();
  await expect(page.getByText("Payment System Error")).toHaveCount(0);
  // No console error or uncaught exception: the `consoleWatch` fixture fails the test on either.
});

test("buys SSL with the procurement add-on: the summary, the checkout and the invoice show it", async ({
  page,
}) => {
  const email = `ssl.${unique()}@example.com`;
  await registerAndVerify(page, "Sam Secure", email);
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);

  await page.goto("/client/purchase/ssl-setup?package=single&currency=USD");
  // Ticked at once, perhaps before hydration: the summary still counts it.
  await page.getByRole("checkbox", { name: /Certificate procurement/ }).check();
  await expect(page.getByTestId("summary-addon-procurement")).toHaveText("$5.00");
  await expect(page.getByTestId("summary-total")).toHaveText("$15.00");
  await page.getByRole("checkbox", { name: /Certificate procurement/ }).uncheck();
  await expect(page.getByTestId("summary-addon-procurement")).toHaveCount(0);
  await expect(page.getByTestId("summary-total")).toHaveText("$10.00");
  await page.getByRole("checkbox", { name: /Certificate procurement/ }).check();
  // A click anywhere on a package's card picks it, its list of features included (beside the label,
  // under the label's ::after: forced, since Playwright would wait for the list itself to be on top).
  await page.getByText("Wildcard certificate for all subdomains").click({ force: true, timeout: 10_000 });
  await expect(page.getByRole("radio", { name: "Wildcard" })).toBeChecked();
  await page.getByRole("radio", { name: "Wildcard" }).check();
  await expect(page.getByTestId("summary-total")).toHaveText("$60.00");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await expect(page.getByText("SSL & HTTPS Setup — Wildcard + Certificate procurement")).toBeVisible();
  await expect(page.getByTestId("sandbox-amount")).toContainText("$60.00");
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=60$/);

  await page.goto("/client/invoice/latest");
  await expect(page.getByRole("row", { name: /Certificate procurement/ })).toContainText("$5.00");
  await expect(page.getByTestId("invoice-total")).toHaveText("$60.00");
});
