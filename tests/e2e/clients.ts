/**
 * What the portal's browser tests share: the server's test hooks and a client signed up in the page.
 * `base` reaches another server than global-setup.ts's (a test that starts its own).
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { expect } from "./fixtures";

export const PASSWORD = "Str0ng!Passw0rd";
export const unique = () => `${Date.now()}${Math.floor(Math.random() * 1e6)}`;

/** The server's test hooks (TEST_HOOKS=true in global-setup.ts): orders and payments without a provider. */
export async function hook<T = unknown>(
  request: APIRequestContext,
  name: string,
  body: object,
  base?: string,
): Promise<T> {
  const res = await request.post(`${base ?? ""}/api/test-hooks/${name}`, { data: body });
  expect(res.status(), `hook ${name}`).toBe(200);
  return (await res.json()) as T;
}

/** A signed-in client on the dashboard (registered in the page, email confirmed through the hook). */
export async function signUp(page: Page, name: string, base = ""): Promise<string> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${unique()}@example.com`;
  await page.goto(`${base}/client/register`);
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
  await hook(page.request, "verify-user", { email }, base);
  await page.goto(`${base}/client/login`);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);
  return email;
}
