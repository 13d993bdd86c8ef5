/**
 * The profile's timezone saved with the account (ADR 0521), in a browser whose own zone is Tokyo's: the
 * page never reads it, so the dashboard hydrates without a mismatch whatever the zone; changing the
 * profile's timezone moves the dashboard's dates. And a choice an older version kept in this browser is
 * shown, then saved with the account on the next save.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

// Mar 1 at 02:30 in New York, still Feb 28 (23:30) in Los Angeles.
const PLACED = "2026-03-01T07:30:00Z";

test.use({ timezoneId: "Asia/Tokyo" });

const liveIndicator = (page: Page) => page.locator("[data-live-status]");

/** Console messages that speak of hydration (React's text mismatch is error #418 in production). */
function watchHydration(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/hydrat|#418|#425|did not match/i.test(m.text())) seen.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => {
    if (/hydrat|#418|#425/i.test(e.message)) seen.push(`pageerror: ${e.message}`);
  });
  return seen;
}

/** Presses Save Changes and waits for the server's answer to that post (not an earlier one's message). */
async function saveProfile(page: Page) {
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/client/profile"),
  );
  await page.getByRole("button", { name: "Save Changes" }).click();
  await answered;
}

test("changing the profile's timezone moves the dashboard's dates, with no hydration mismatch", async ({
  page,
}) => {
  const hydration = watchHydration(page);
  const email = await signUp(page, "Tia Timezone");
  const { orders } = await hook<{ orders: Array<{ orderId: string }> }>(page.request, "orders", {
    email,
    placedAt: PLACED,
  });

  await page.goto("/client/dashboard");
  const recent = page.getByRole("region", { name: "Recent Orders" });
  // Never saved: New York, the spec's default (Tokyo would say Mar 1 too, but 16:30: see the order page).
  await expect(recent).toContainText("Mar 1, 2026");
  await expect(liveIndicator(page)).toHaveText("Live");
  expect(hydration).toEqual([]);

  await page.goto("/client/profile");
  const zone = page.getByLabel("Timezone");
  await expect(zone).toHaveValue("America/New_York");
  // Every IANA zone is offered, by region (issue 37, item 12): Kathmandu first, saved, then Los Angeles.
  await expect(zone.locator('optgroup[label="Asia"] option[value="Asia/Kathmandu"]')).toHaveText("Kathmandu");
  await zone.selectOption("Asia/Kathmandu");
  await page.getByLabel("Country", { exact: true }).selectOption({ label: "Nepal" });
  await saveProfile(page);
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  await expect(zone).toHaveValue("Asia/Kathmandu");
  await expect(page.getByLabel("Country", { exact: true })).toHaveValue("NP");
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await zone.selectOption("America/Los_Angeles");
  // The first save's message is still on the page: wait for this save's own answer.
  await saveProfile(page);
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  await expect(zone).toHaveValue("America/Los_Angeles");

  await page.goto("/client/dashboard");
  await expect(recent).toContainText("Feb 28, 2026");
  await expect(recent).not.toContainText("Mar 1, 2026");
  await expect(liveIndicator(page)).toHaveText("Live");
  // The time, where one is shown: the order's timeline, in Pacific time.
  await page.goto(`/client/orders/${orders[0]!.orderId}`);
  await expect(page.getByRole("region", { name: "Progress" })).toContainText("Feb 28, 2026, 23:30 PST");
  await expect(liveIndicator(page)).toHaveText("Live");
  expect(hydration).toEqual([]);
});

test("a timezone an older version kept in this browser is shown, then saved with the account", async ({
  page,
}) => {
  const email = await signUp(page, "Lou Local");
  await hook(page.request, "orders", { email, placedAt: PLACED });
  await page.evaluate(() =>
    window.localStorage.setItem(
      "portico.profile.preferences",
      JSON.stringify({ timezone: "America/Los_Angeles", language: "es" }),
    ),
  );
  await page.goto("/client/profile");
  await expect(page.getByLabel("Timezone")).toHaveValue("America/Los_Angeles");
  await expect(page.getByLabel("Language")).toHaveValue("es");
  // Until saved, the account's (default) zone rules the portal.
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(page.getByText("Profile updated successfully!")).toBeVisible();
  // Saved with the account: the local copy is gone, and the dashboard is in Pacific time.
  await expect
    .poll(() => page.evaluate(() => window.localStorage.getItem("portico.profile.preferences")))
    .toBeNull();
  await page.goto("/client/dashboard");
  await expect(page.getByRole("region", { name: "Recent Orders" })).toContainText("Feb 28, 2026");
});
