/**
 * The profile's billing details in the browser (ADR 0504): a client fills company, address, country
 * and VAT/Tax ID in /client/profile, saves, reloads and finds them kept; buys, and the invoice's Bill To
 * prints them; then moves (another company, address, country and tax id), and the invoice already
 * issued still prints the details it was issued with.
 */
import type { Page } from "@playwright/test";
import { signUp } from "./clients";
import { expect, test } from "./fixtures";

const PURCHASE = "/client/purchase/email-migration?package=basic&currency=USD";

// A whole journey (sign up, profile twice, buy, pay): give it three times the usual time.
test.beforeEach(() => test.slow());

interface Billing {
  company: string;
  address: string;
  country: string;
  taxId: string;
}

const ISSUED: Billing = {
  company: "Engines Ltd",
  address: "1 Analytical Way, London",
  country: "United Kingdom",
  taxId: "GB123456789",
};
const LATER: Billing = {
  company: "Difference Engines GmbH",
  address: "2 Difference Street, Berlin",
  country: "Germany",
  taxId: "DE811907980",
};

/** The profile form's billing fields, found by their labels. */
function billingFields(page: Page) {
  return {
    company: page.getByLabel("Company", { exact: true }),
    address: page.getByLabel("Billing Address", { exact: true }),
    country: page.getByLabel("Country", { exact: true }),
    taxId: page.getByLabel("VAT/Tax ID", { exact: true }),
  };
}

/** Types the billing details into the profile form (replacing what is there) and saves them. */
async function saveBilling(page: Page, billing: Billing) {
  await page.goto("/client/profile");
  const fields = billingFields(page);
  // The country is a list (issue 37, item 12): chosen by its name, stored as its code.
  await fields.country.selectOption({ label: billing.country });
  for (const key of ["company", "address", "taxId"] as const) {
    await fields[key].click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(billing[key]);
  }
  // Enter in the last field submits the form, as it does for anyone typing.
  await page.keyboard.press("Enter");
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
}

async function expectBillingFields(page: Page, billing: Billing) {
  const fields = billingFields(page);
  for (const key of ["company", "address", "taxId"] as const) {
    await expect(fields[key]).toHaveValue(billing[key]);
  }
  await expect(fields.country.locator("option:checked")).toHaveText(billing.country);
}

test("billing details are kept in the profile, printed on the invoice, and stay on it as issued", async ({
  page,
}) => {
  const email = await signUp(page, "Ada Billing");

  await saveBilling(page, ISSUED);
  await page.reload();
  await expectBillingFields(page, ISSUED);

  // Buy and pay with the sandbox: the invoice is issued with these details.
  await page.goto(PURCHASE);
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=4$/);
  await page.goto("/client/invoice/latest");
  await expect(page.getByTestId("invoice-status")).toHaveText("Paid");
  const heading = page.getByRole("heading", { level: 1 });
  const number = (await heading.textContent())!.replace("Invoice ", "");
  expect(number).toMatch(/^INV-\d{4}-\d{4,}$/);
  const billTo = page.getByRole("article").getByRole("heading", { name: "Bill To" }).locator("..");
  const printed = ["Ada Billing", ISSUED.company, ISSUED.address, ISSUED.country, email];
  await expect(billTo.locator("p")).toHaveText([...printed, `VAT/Tax ID: ${ISSUED.taxId}`]);

  // The client moves: the profile says so after a reload…
  await saveBilling(page, LATER);
  await page.reload();
  await expectBillingFields(page, LATER);

  // …and the invoice already issued, opened from the list, still reads as it did.
  await page.goto("/client/invoices");
  await page.getByRole("link", { name: `View invoice ${number}` }).click();
  await expect(heading).toHaveText(`Invoice ${number}`);
  await expect(billTo.locator("p")).toHaveText([...printed, `VAT/Tax ID: ${ISSUED.taxId}`]);
  for (const later of Object.values(LATER)) {
    await expect(page.getByRole("article")).not.toContainText(later);
  }
});
