/**
 * Care plans in a browser (issue 38, item 1; ADR 0530): a visitor whose browser asks for German sees
 * /plans in euros, rendered by the server, with the USD price beneath; the owner changes a plan's
 * monthly price in the back office and the visitor's page shows the new price at once. axe finds
 * nothing on /plans, the owner's list and the plan's editor.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

const axe = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

test("a visitor sees /plans in euros, and the owner's new price shows there at once", async ({
  browser,
  page,
  baseURL,
}, testInfo) => {
  const visitorContext = await browser.newContext({
    baseURL,
    locale: "de-DE",
    extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9", "X-Forwarded-For": "127.0.0.61" },
  });
  try {
    const visitor = await visitorContext.newPage();
    await visitor.addInitScript(() => window.localStorage.setItem("portico.chat.seen", "true"));
    const response = await visitor.goto("/plans");
    expect(await response!.text()).toMatch(/data-price-usd="49" data-currency="EUR">[^<]*€/);
    await expect(visitor.getByRole("heading", { name: "Care Plans", level: 1 })).toBeVisible();
    const plus = visitor
      .getByRole("listitem")
      .filter({ has: visitor.getByRole("heading", { name: "Care Plus" }) });
    await expect(plus.locator("[data-price-usd-beneath]").first()).toHaveText(/\$[\d,.]+ USD/);
    await expect(plus).toContainText("€");
    await expect(plus).toContainText("2 months free");
    await expect(plus.getByRole("link", { name: /^Choose plan\s*: Care Plus$/ })).toHaveAttribute(
      "href",
      /\/client\/plans\/subscribe\/care-plus\?cycle=monthly$/,
    );
    await visitor.waitForLoadState("networkidle");
    await axe(visitor);

    // The owner edits Care Plus's monthly price (a price of this run's own).
    const price = `${140 + testInfo.repeatEachIndex}.50`;
    await page.goto("/client/login");
    await page.getByLabel("Email Address").fill(adminFixtures().adminEmail);
    await page.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page
      .getByRole("navigation", { name: "Back office" })
      .getByRole("link", { name: "Care plans" })
      .click();
    await expect(page.getByRole("heading", { name: "Care plans", level: 1 })).toBeVisible();
    await axe(page);
    await page.getByRole("link", { name: "Care Plus" }).click();
    await expect(page.getByRole("heading", { name: "Edit Care Plus", level: 1 })).toBeVisible();
    await page.getByLabel("Monthly price (USD)").fill(price);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Care Plus is saved; the site shows the change now.")).toBeVisible();
    await expect(page.getByLabel("Monthly price (USD)")).toHaveValue(price);
    await axe(page);

    // The visitor's page shows it, still in euros.
    await visitor.reload();
    const changed = plus.locator(`[data-price-usd="${Number(price)}"]`);
    await expect(changed).toHaveAttribute("data-currency", "EUR");
    await expect(changed).toContainText("€");
    await expect(plus.locator("[data-price-usd-beneath]").first()).toHaveText(`$${price} USD`);
  } finally {
    await visitorContext.close();
  }
});
