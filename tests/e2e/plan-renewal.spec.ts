/**
 * With WALK_SCREENSHOTS set to a folder, full-page screenshots of the plan's pages at 1280 and 390 px are
 * saved there as plans-<page>-<width>.png (docs/screenshots/, linked from the README).
 */
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

// A plan walked through three periods on the server's injected clock (the plan-jobs hook): five times the
// usual time.
test.beforeEach(() => test.setTimeout(150_000));

/** A calendar day `months` later, the day clamped to the month (31 Jan → 28 Feb), as the plan's periods. */
function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${year}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}
const noon = (day: string, plusDays = 0) =>
  new Date(Date.parse(`${day}T12:00:00.000Z`) + plusDays * 86_400_000).toISOString();
const shown = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });

const SHOTS = process.env.WALK_SCREENSHOTS;

/** With WALK_SCREENSHOTS, the page at both widths (full page), then back to the width it had. */
async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  const before = page.viewportSize();
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.resolve(SHOTS, `plans-${name}-${size.width}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
}

async function payOnSandbox(page: Page, card: RegExp, button: "Pay" | "Save card") {
  await expect(page).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
  await page.getByRole("radio", { name: card }).check();
  await page.getByRole("button", { name: button }).click();
}

test("a plan renews from its card, a declined card is replaced by paying with a new one, a new card is saved, and the plan is cancelled at its period's end", async ({
  page,
}) => {
  const email = await signUp(page, "Renewal Journey");
  await page.goto("/client/plans/subscribe/care-essentials?cycle=monthly");
  await page.getByRole("button", { name: "Subscribe and pay" }).click();
  await payOnSandbox(page, /Visa 4242/, "Pay");
  await expect(page).toHaveURL(/\/thank-you\?type=payment/);
  const anchor = new Date().toISOString().slice(0, 10);
  await hook(page.request, "plan-jobs", { email });
  const plan = page.locator("section", {
    has: page.getByRole("heading", { name: "Care Essentials", level: 2 }),
  });

  // Renewal 1: invoiced a week before and charged to the saved card on its day.
  const p1 = addMonths(anchor, 1);
  await hook(page.request, "plan-jobs", { email, now: noon(p1, -7) });
  await hook(page.request, "plan-jobs", { email, now: noon(p1) });
  await page.goto("/client/plans");
  await expect(plan.getByRole("cell", { name: "Paid", exact: true })).toHaveCount(2);
  await expect(plan.getByTestId("plan-card")).toHaveText(/^Visa ending 4242/);
  await shoot(page, "renewed");

  // A new card through the provider's setup page, previewed first.
  await plan.getByRole("link", { name: "Update card" }).click();
  await expect(page.getByRole("heading", { name: "A new card for Care Essentials", level: 1 })).toBeVisible();
  await expect(page.getByText("Nothing is charged now.")).toBeVisible();
  await shoot(page, "new-card");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("button", { name: "Continue to the card form" }).click();
  await payOnSandbox(page, /Visa 9995/, "Save card");
  await expect(page).toHaveURL(/\/client\/plans\?card=saved$/);
  await expect(page.getByRole("status")).toHaveText(
    "Your new card is saved: the renewals are charged to it.",
  );
  await expect(plan.getByTestId("plan-card")).toHaveText(/^Visa ending 9995/);

  // Renewal 2 is declined (insufficient funds): the plan is past due, with the way to pay.
  const p2 = addMonths(anchor, 2);
  await hook(page.request, "plan-jobs", { email, now: noon(p2) });
  await page.goto("/client/plans");
  await expect(plan.getByText("Payment failed", { exact: true })).toBeVisible();
  const payLink = plan.getByRole("link", { name: /^Pay invoice INV-\S+ \(\$49\.00\) with a new card$/ });
  await expect(payLink).toBeVisible();
  await shoot(page, "declined");
  await page.goto("/client/notifications");
  await expect(page.getByRole("link", { name: /Payment failed/ }).first()).toBeVisible();

  // Paid with another card in one step: the plan is active again with that card.
  await page.goto("/client/plans");
  await payLink.click();
  await expect(page).toHaveURL(/\/client\/invoice\//);
  await page.getByRole("button", { name: "Pay Now" }).click();
  await payOnSandbox(page, /Mastercard 4444/, "Pay");
  await expect(page).toHaveURL(/\/thank-you\?type=payment/);
  await hook(page.request, "plan-jobs", { email, now: noon(p2, 1) });
  await page.goto("/client/plans");
  await expect(plan.getByText("Active", { exact: true })).toBeVisible();
  await expect(plan.getByTestId("plan-card")).toHaveText(/^Mastercard ending 4444/);

  // Cancelled at the end of the last period paid, with a reason; resumable until then.
  const p3 = addMonths(anchor, 3);
  await plan.getByRole("link", { name: "Cancel plan" }).click();
  await expect(page.getByTestId("plan-change-lines")).toContainText(
    `Care Essentials stays active until ${shown(p3)} and is not renewed after that.`,
  );
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await shoot(page, "cancel");
  // On a phone the change and its form stay on screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByLabel("Why are you cancelling? (optional)").fill("Moving the mail in-house");
  await page.getByRole("button", { name: "Cancel at period end" }).click();
  await expect(page.getByRole("status")).toHaveText(
    `Care Essentials ends on ${shown(p3)}. You can resume it until then.`,
  );
  await page.getByRole("link", { name: "Back to your care plans" }).click();
  await expect(plan.getByText(`Ends on ${shown(p3)}`)).toBeVisible();
  await expect(plan.getByRole("link", { name: "Resume plan" })).toBeVisible();
  await shoot(page, "ending");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // On its end day the plan ends, and nothing more is invoiced.
  await hook(page.request, "plan-jobs", { email, now: noon(p3) });
  await page.reload();
  await expect(plan.getByText("Cancelled", { exact: true })).toBeVisible();
  await expect(plan.getByRole("link", { name: /^INV-/ })).toHaveCount(3);
});
