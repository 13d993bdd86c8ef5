/**
 * "Delete my account" in a browser (issue 25, ADR 0520): a client with orders types the password and
 * DELETE before the page hydrates, deletes the account from the Privacy tab (axe clean), lands signed
 * out on the page saying so, can't sign in, and registers again with the same address as a new, empty
 * client. The owner deletes another client from the back office, typing DELETE and their own password.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, PASSWORD, signUp } from "./clients";
import { expect, holdScripts, test } from "./fixtures";

async function signIn(page: Page, email: string, password: string) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

test("a client deletes the account, is signed out, can't sign in, and registers again as a new client", async ({
  page,
  consoleWatch,
}) => {
  // The sign-in with the deleted account's password answers 401, as it should.
  consoleWatch.allow(/status of 401 \(Unauthorized\)/);
  const email = await signUp(page, "Delia Departing");
  await hook(page.request, "orders", { email, status: "completed", amountUsd: 30 });
  await hook(page.request, "orders", { email, status: "pending", amountUsd: 20 });

  // Typed before the page hydrates: the uncontrolled inputs keep it.
  const release = await holdScripts(page);
  await page.goto("/client/profile?tab=privacy", { waitUntil: "domcontentloaded" });
  await page.getByLabel("Your password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  release();
  await expect(page.getByRole("heading", { name: "Delete my account" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("button", { name: "Delete my account" }).click();

  await expect(page).toHaveURL(/\/client\/account-deleted$/);
  await expect(page.getByRole("heading", { name: "Your account has been deleted" })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  // Signed out: the portal asks to sign in, and the old password no longer works.
  await page.goto("/client/dashboard");
  await expect(page).toHaveURL(/\/client\/login/);
  await signIn(page, email, PASSWORD);
  await expect(page.getByText("Invalid email or password.")).toBeVisible();

  // The same address, a new client with nothing of the old one.
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill("Delia Returning");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  await hook(page.request, "verify-user", { email });
  await signIn(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  await page.goto("/client/orders");
  await expect(page.getByText("You haven't placed any orders yet.")).toBeVisible();
});

test("the owner deletes a client from the back office", async ({ page, browser, consoleWatch }) => {
  // The refused attempt below answers 400, as it should.
  consoleWatch.allow(/status of 400 \(Bad Request\)/);
  // The client, in a browser of their own.
  const clientContext = await browser.newContext();
  const clientPage = await clientContext.newPage();
  const email = await signUp(clientPage, "Otto Byrequest");
  await hook(clientPage.request, "orders", { email, status: "pending", amountUsd: 25 });

  await signIn(page, adminFixtures(test.info().repeatEachIndex).adminEmail, FIXTURE_PASSWORD);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.goto(`/admin/clients?q=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name: "Otto Byrequest" }).click();
  await expect(page.getByRole("heading", { name: "Otto Byrequest", level: 1 })).toBeVisible();

  // Without the owner's own password: refused, nothing deleted.
  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByRole("button", { name: "Delete client" }).click();
  await expect(page.getByText("Enter your own password to confirm.").first()).toBeVisible();

  await page.getByLabel("Type DELETE to confirm").fill("DELETE");
  await page.getByLabel("Your password", { exact: true }).fill(FIXTURE_PASSWORD);
  await page.getByRole("button", { name: "Delete client" }).click();
  await expect(page.getByText("The client's account has been deleted.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Deleted client", level: 1 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Export client data" })).toHaveCount(0);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The client's own browser is signed out.
  await clientPage.goto("/client/dashboard");
  await expect(clientPage).toHaveURL(/\/client\/login/);
  await clientContext.close();
});
