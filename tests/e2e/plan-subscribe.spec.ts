import AxeBuilder from "@axe-core/playwright";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

// A whole journey (sign up, choose, pay, see the plan): three times the usual time.
test.beforeEach(() => test.slow());

test("a client chooses Care Plus on /plans, pays with a saved test card, and finds the plan active with that card", async ({
  page,
}) => {
  const email = await signUp(page, "Plan Subscriber");
  await page.goto("/plans");
  await page.getByRole("link", { name: /^Choose plan\s*: Care Plus$/ }).click();
  await expect(page).toHaveURL(/\/client\/plans\/subscribe\/care-plus\?cycle=monthly$/);
  await expect(page.getByRole("heading", { name: "Subscribe to Care Plus", level: 1 })).toBeVisible();
  await expect(page.getByRole("radio", { name: /Monthly/ })).toBeChecked();
  await expect(page.getByText("The card you pay with is saved for the renewals.")).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.getByRole("button", { name: "Subscribe and pay" }).click();
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await expect(page.getByText("Care Plus — Monthly")).toBeVisible();
  await page.getByRole("radio", { name: /Mastercard 4444/ }).check();
  await page.getByRole("button", { name: "Pay" }).click();
  await expect(page).toHaveURL(/\/thank-you\?type=payment/);
  await expect(page.getByRole("main")).toContainText("Your care plan is active: see it under Care Plans.");

  await page.goto("/client/plans");
  const plan = page.locator("section", { has: page.getByRole("heading", { name: "Care Plus", level: 2 }) });
  await expect(plan.getByText("Active", { exact: true })).toBeVisible();
  await expect(plan.getByTestId("plan-renewal")).toContainText("(at that day's rate)");
  await expect(plan.getByRole("link", { name: /^INV-/ })).toBeVisible();
  // The page reads the plan as active from its paid invoice at once; the activation job (every minute,
  // run here through its hook, whether or not the server's own run came first) then starts it with the
  // card the client chose on the sandbox's page.
  await hook(page.request, "plan-jobs", { email });
  await page.reload();
  await expect(plan.getByTestId("plan-card")).toHaveText(/^Mastercard ending 4444, expires \d{2}\/\d{4}$/);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // On a phone the plan's facts and invoices stay on screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
