/**
 * An incident covered by a care plan in the browser (issue 38, item 6): a client subscribed to Care Plus
 * opens per-incident support, sees "Covered by your plan" with the incidents left, orders one without
 * paying, and lands on the order's page, which names the plan where the amount would be and asks for
 * the brief. Axe on both pages.
 */
import AxeBuilder from "@axe-core/playwright";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

// A whole journey (sign up, subscribe and pay, then order): three times the usual time.
test.beforeEach(() => test.slow());

test("a subscribed client orders per-incident support covered by the plan and answers its brief", async ({
  page,
}) => {
  const email = await signUp(page, "Covered Client");
  await page.goto("/client/plans/subscribe/care-plus?cycle=monthly");
  await page.getByRole("button", { name: "Subscribe and pay" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment/);
  // The plan-states job starts the plan (the server's own run may come first: either starts it once).
  await hook(page.request, "plan-jobs", { email });

  await page.goto("/client/purchase/per-incident-support");
  const offer = page.getByRole("region", { name: "Covered by your plan" });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText("Care Plus: 3 of 3 incidents left this period");
  // Paying stays possible below.
  await expect(page.getByRole("button", { name: "Proceed to Payment" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await offer.getByRole("button", { name: "Order with Care Plus" }).click();
  await expect(page).toHaveURL(/\/client\/orders\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { name: "Per Incident Support", level: 1 })).toBeVisible();
  await expect(page.getByTestId("order-covered")).toHaveText("Covered by Care Plus");
  await expect(page.getByText("Covered by plan")).toBeVisible();
  const brief = page.getByRole("region", { name: "Tell us about the job" });
  await expect(brief).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await brief.getByLabel("What is broken").fill("Outlook cannot send mail");
  await brief.getByLabel("Since when").fill("This morning");
  await brief.getByLabel("How urgent is it").fill("Nobody can send email");
  await brief.getByRole("button", { name: "Send details" }).click();
  await expect(page.getByText("Thank you: your details are with us.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Your details" })).toContainText("Outlook cannot send mail");

  // The plan's page counts the incident; the purchase page shows what is left.
  await page.goto("/client/plans");
  await expect(page.getByText("1 of 3 used")).toBeVisible();
  await page.goto("/client/purchase/per-incident-support");
  await expect(page.getByRole("region", { name: "Covered by your plan" })).toContainText(
    "2 of 3 incidents left this period",
  );
});
