/**
 * The thank-you page after a sandbox payment in a browser (issue 37, item 4): it names the service,
 * the invoice number and the amount in its currency ("$10.00"), says the order is being processed, and
 * its Download Invoice downloads that invoice's PDF. axe on the page. (A deposit's thank-you page:
 * quote-accept.spec.ts.)
 */
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { PDFParse } from "pdf-parse";
import { signUp } from "./clients";
import { expect, test } from "./fixtures";

test("after paying an SSL order: its service, invoice and amount, and Download Invoice is its PDF", async ({
  page,
}) => {
  test.slow();
  await signUp(page, "Tara Thankful");
  await page.goto("/client/purchase/ssl-setup?package=single&currency=USD");
  await expect(page.getByTestId("summary-total")).toHaveText("$10.00");
  await page.getByRole("button", { name: "Proceed to Payment" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment&order_id=[0-9a-f-]{36}&amount=10$/);

  const main = page.getByRole("main");
  await expect(main).toContainText("Your payment was successful. Your order is being processed.");
  const facts = page.getByTestId("payment-facts");
  await expect(facts).toContainText("SSL & HTTPS Setup");
  await expect(facts).toContainText("Single Domain");
  await expect(page.getByTestId("payment-amount")).toHaveText("$10.00");
  const invoiceLink = facts.getByRole("link", { name: /^INV-\d{4}-\d{4,}$/ });
  const number = (await invoiceLink.textContent())!;
  // The order's id is not printed (it once was, raw from the query).
  const orderId = new URL(page.url()).searchParams.get("order_id")!;
  await expect(main).not.toContainText(orderId);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download Invoice" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const parser = new PDFParse({ data: new Uint8Array(readFileSync((await download.path())!)) });
  const { text } = await parser.getText();
  await parser.destroy();
  expect(text).toContain(number);
  expect(text).toContain("$10.00");

  // The invoice link opens that invoice.
  await invoiceLink.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Invoice ${number}`);
});
