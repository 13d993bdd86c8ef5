/**
 * The owner writes and sends a quote in a browser (issue "quotes", item 2), from the keyboard and the
 * fields' labels: a catalogue package and a free line, a discount and a deposit; the draft is saved,
 * its amounts shown, then sent (numbered, read only, with Revise) and listed; the recipient, who has no
 * account, is emailed an invitation to register. axe finds nothing on the editor, the draft and the sent
 * quote's page.
 */
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

const axe = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

test("the owner writes a quote with a catalogue package and a free line, saves it, and sends it", async ({
  page,
}) => {
  const email = `quote.reader.${Date.now()}@example.com`;
  await signInAsAdmin(page);
  await page.getByRole("navigation", { name: "Back office" }).getByRole("link", { name: "Quotes" }).click();
  await expect(page.getByRole("heading", { name: "Quotes", level: 1 })).toBeVisible();
  await page.getByRole("link", { name: "New quote" }).click();
  await expect(page).toHaveURL(/\/admin\/quotes\/new$/);
  await expect(page.getByRole("heading", { name: "New quote", level: 1 })).toBeVisible();
  // Once the scripts run, a line shows only its kind's fields.
  const first = page.getByRole("group", { name: "Line 1" });
  await expect(first.getByLabel("Unit price in USD")).toBeHidden();
  await axe(page);

  await page.getByLabel("Recipient's name").fill("Rita Reader");
  await page.getByLabel("Recipient's email").fill(email);
  await page.getByLabel("Company (optional)").fill("Reader & Co");

  // Line 1: a catalogue package (no price to type: the catalogue's is used).
  await expect(first.getByLabel("Kind")).toHaveValue("catalogue");
  await first
    .getByLabel("Service and package")
    .selectOption({ label: "Hosting & Control Panel Support — Standard, $25.00" });
  await first.getByLabel("Quantity").fill("2");

  // Line 2: a free line, chosen from the keyboard.
  const second = page.getByRole("group", { name: "Line 2" });
  await second.getByLabel("Kind").focus();
  await second.getByLabel("Kind").selectOption("free");
  await expect(second.getByLabel("Service and package")).toBeHidden();
  await second.getByLabel("Description").fill("Migration weekend, on site");
  await page.keyboard.press("Tab");
  await expect(second.getByLabel("Unit price in USD")).toBeFocused();
  await page.keyboard.type("1,000");
  await second.getByLabel("Quantity").fill("1");

  await page.getByLabel("Discount in USD (optional)").fill("10");
  await page.getByLabel("Deposit in percent (optional)").fill("40");
  await expect(page.getByLabel("Valid until")).not.toHaveValue("");
  await expect(page.getByLabel("Terms the client accepts")).toHaveValue(/valid until the date shown/);

  await page.getByRole("button", { name: "Save draft" }).press("Enter");
  await expect(page).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}\?done=saved$/);
  await expect(page.getByRole("status")).toHaveText("The draft is saved.");
  await expect(page.getByRole("heading", { name: "Draft quote for Rita Reader", level: 1 })).toBeVisible();
  // 2 × $25.00 + $1,000.00 − $10.00 = $1,040.00 (no tax configured); deposit 40% = $416.00.
  const amounts = page
    .locator("section")
    .filter({ has: page.getByRole("heading", { name: "Amounts as saved" }) });
  await expect(
    amounts.getByRole("cell", { name: "Hosting & Control Panel Support — Standard" }),
  ).toBeVisible();
  await expect(amounts).toContainText("$1,040.00");
  await expect(amounts).toContainText("Deposit (40%)$416.00");
  await expect(amounts).toContainText("Balance on completion$624.00");
  // The editor shows the saved lines again.
  await expect(page.getByRole("group", { name: "Line 2" }).getByLabel("Description")).toHaveValue(
    "Migration weekend, on site",
  );
  await axe(page);

  // "Add line" adds a row at once, no draft needed (issue 37, item 9).
  await page.getByRole("button", { name: "Add line" }).click();
  await expect(page.getByRole("group", { name: "Line 5" }).getByLabel("Kind")).toBeFocused();
  // Preview, then Send: the figures and who receives it first.
  await page.getByRole("button", { name: "Preview and send" }).press("Enter");
  const preview = page.getByTestId("quote-preview");
  await expect(preview).toContainText(`It is emailed to Rita Reader (Reader & Co) <${email}>`);
  await expect(preview).toContainText("$1,040.00");
  await axe(page);
  await page.getByRole("button", { name: `Send the quote to ${email}` }).press("Enter");
  const sent = page.getByRole("status");
  await expect(sent).toHaveText(
    new RegExp(`^Quote Q-\\d{4}-\\d{4} was sent to ${email.replace(/\./g, "\\.")}\\.$`),
  );
  const number = /Q-\d{4}-\d{4}/.exec((await sent.textContent()) ?? "")![0];
  await expect(page.getByRole("heading", { name: `Quote ${number}`, level: 1 })).toBeVisible();
  await expect(page.getByRole("group", { name: "Line 1" })).toHaveCount(0);
  await expect(page.getByText("None yet: invited to register")).toBeVisible();
  await expect(page.getByRole("button", { name: "Revise" })).toBeVisible();
  await axe(page);

  await page.getByRole("link", { name: "All quotes" }).click();
  const row = page.getByRole("row").filter({ hasText: number });
  await expect(row).toContainText(email);
  await expect(row).toContainText("$1,040.00");
  await expect(row).toContainText("Sent");
  await axe(page);

  // The recipient's email invites them to register to see it.
  await page.goto("/dev/mail");
  await expect(page.getByText(`Your quote ${number}`).first()).toBeVisible();
});
