/**
 * The README's walk-through on a site started as a newcomer's `npm start` starts it: production mode, no
 * mail relay, no DEV_MAIL_ENABLED, a fresh embedded database. Register, open the verification email at
 * /dev/mail, follow its link, sign in and reach the dashboard. This server is the test's own, not
 * global-setup's (which turns the inbox on explicitly).
 */

import { type NpmStart, npmStart } from "../support/npm-start";
import { freePort } from "../support/server";
import { expect, test } from "./fixtures";

const PASSWORD = "Str0ng!Passw0rd";

let site: NpmStart;
let url = "";

test.beforeAll(async () => {
  // A fresh embedded database is migrated and seeded first: slow on a busy machine.
  test.setTimeout(180_000);
  const port = await freePort();
  url = `http://localhost:${port}`;
  // Only the port differs from `npm start` (PUBLIC_URL, unset, follows it).
  site = npmStart({ PORT: String(port) });
  await site.waitFor((out) => out.includes('"msg":"Portico listening"'));
});

test.afterAll(async () => {
  await site?.stop();
});

test("a newcomer's npm start: register, verify from /dev/mail, sign in, reach the dashboard", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = `newcomer.${Date.now()}@example.com`;
  await page.goto(`${url}/client/register`);
  await page.getByLabel("Full Name").fill("Nina Newcomer");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);

  // The email is queued with the account; the outbox captures it: reload the inbox until it is there.
  const row = page
    .getByRole("row")
    .filter({ hasText: email })
    .filter({ hasText: /Confirm your email address/ });
  await expect(async () => {
    const inbox = await page.goto(`${url}/dev/mail`);
    expect(inbox?.status()).toBe(200);
    await expect(row).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await row.getByRole("link").click();
  const link = await page
    .frameLocator('iframe[title="HTML version"]')
    .getByRole("link", { name: "Verify My Email" })
    .getAttribute("href");
  expect(link?.startsWith(`${url}/`)).toBe(true);
  await page.goto(link!);
  await expect(page).toHaveURL(/\/client\/login\?verified=true$/);

  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(`${url}/client/dashboard`);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});
