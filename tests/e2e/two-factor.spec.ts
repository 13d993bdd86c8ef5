/**
 * Two-factor sign-in in the browser (docs/decisions/0702): a new client turns it on from the profile
 * (password, key, a wrong then a right code, backup codes), signs out, and signs in again with the
 * password and then a code from the authenticator (computed here from the key the page showed); then
 * with a backup code. Every screen of the journey is checked with axe.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { totp, wrongCode } from "../support/totp";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

const PASSWORD = "Str0ng!Passw0rd";

async function noAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

async function registerAndVerify(page: Page, email: string) {
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill("Grace Hopper");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  const row = page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: /Confirm your email address/ })
    .first();
  await expect(async () => {
    await page.goto("/dev/mail");
    await expect(row).toBeVisible({ timeout: 1000 });
  }).toPass();
  await row.getByRole("link").click();
  const href = await page
    .frameLocator('iframe[title="HTML version"]')
    .getByRole("link", { name: "Verify My Email" })
    .getAttribute("href");
  await page.goto(href!);
  await expect(page).toHaveURL(/\/client\/login\?verified=true$/);
}

async function enterPassword(page: Page, email: string) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function signOut(page: Page) {
  await page.goto("/");
  await page.getByRole("banner").getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Login" })).toBeVisible();
}

test("turn on two-factor from the profile, sign out, sign in with a code, then with a backup code", async ({
  page,
  consoleWatch,
}) => {
  // Register, verify, four sign-ins and four axe runs: longer than the default 30 s under load.
  test.slow();
  consoleWatch.allow(/status of (400|401)/);
  const email = `grace.${Date.now()}${Math.floor(Math.random() * 1e6)}@example.com`;
  await registerAndVerify(page, email);
  await enterPassword(page, email);
  await expect(page).toHaveURL(/\/client\/dashboard$/);

  // Profile → Security tab → its Two-Factor Authentication section.
  await page.goto("/client/profile");
  await page.getByRole("tab", { name: "Security" }).click();
  const panel = page.getByRole("region", { name: "Two-Factor Authentication" });
  await expect(panel.getByText("Two-factor authentication is off.")).toBeVisible();
  await noAxeViolations(page);

  await panel.getByLabel("Confirm with your password", { exact: true }).fill(PASSWORD);
  await panel.getByRole("button", { name: "Set Up Two-Factor Authentication" }).click();
  const qr = panel.getByRole("img", { name: "QR code to add this account to an authenticator app" });
  await expect(qr).toBeVisible();
  const secret = ((await panel.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
  expect(secret).toMatch(/^[A-Z2-7]{32,}$/);
  await noAxeViolations(page);

  // A wrong first code is refused; the right one turns it on and shows the backup codes.
  await panel.getByLabel("6-digit code").fill(wrongCode(secret));
  await panel.getByRole("button", { name: "Turn On Two-Factor Authentication" }).click();
  await expect(panel.getByRole("alert")).toHaveText(
    "That code is not valid. Check that your authenticator app shows this account and try again.",
  );
  await panel.getByLabel("6-digit code").fill(totp(secret));
  await panel.getByRole("button", { name: "Turn On Two-Factor Authentication" }).click();
  await expect(panel.getByRole("heading", { name: "Your backup codes" })).toBeVisible();
  const backupCodes = await panel.getByTestId("backup-codes").getByRole("listitem").allTextContents();
  expect(backupCodes).toHaveLength(10);
  await expect(panel.getByText("Two-factor authentication is on.", { exact: false }).first()).toBeVisible();
  await noAxeViolations(page);

  // Sign out, then sign in: the password is not enough.
  await signOut(page);
  await enterPassword(page, email);
  await expect(page).toHaveURL(/\/client\/two-factor$/);
  await expect(page.getByRole("heading", { name: "Two-Factor Authentication" })).toBeVisible();
  await noAxeViolations(page);
  await page.goto("/client/dashboard");
  await expect(page).toHaveURL(/\/client\/login\?redirectTo=/);

  await enterPassword(page, email);
  await expect(page).toHaveURL(/\/client\/two-factor$/);
  await page.getByLabel("Authentication code").fill(wrongCode(secret, 1));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert")).toHaveText(
    "That code is not valid. Check your authenticator app (or your backup codes) and try again.",
  );
  await noAxeViolations(page);
  await page.getByLabel("Authentication code").fill(totp(secret));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  // Grace has no order yet: welcomed, not welcomed back (issue 37).
  await expect(page.getByRole("heading", { name: "Welcome, Grace Hopper!" })).toBeVisible();

  // A backup code works too, by keyboard alone.
  await signOut(page);
  await enterPassword(page, email);
  await expect(page).toHaveURL(/\/client\/two-factor$/);
  await page.getByLabel("Authentication code").fill(backupCodes[0]!);
  await page.getByLabel("Authentication code").press("Enter");
  await expect(page).toHaveURL(/\/client\/dashboard$/);
});

test("an admin reaches the two-factor settings from the back office", async ({ page }) => {
  // Looks only: the shared e2e admin must keep signing in with the password alone in the other tests.
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
  await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page
    .getByRole("navigation", { name: "Back office" })
    .getByRole("link", { name: "Two-factor" })
    .click();
  await expect(page).toHaveURL(/\/admin\/two-factor$/);
  await expect(page.getByRole("heading", { name: "Two-Factor Authentication", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Set Up Two-Factor Authentication" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continue to the back office" })).toBeVisible();
  await noAxeViolations(page);
});
