/**
 * Care plans in a browser (issue 38, item 1; ADR 0530): a visitor whose browser asks for German sees
 * /plans in euros, rendered by the server, with the USD price beneath; the owner makes a plan (a refused
 * allowance first, nothing typed lost), changes its monthly price, and the visitor's page shows the new
 * price at once, then deactivates it. axe finds nothing on /plans, the owner's list and the editor.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

const axe = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

/** A plan's card on the visitor's /plans. */
const cardOf = (page: Page, name: string) =>
  page.getByRole("listitem").filter({ has: page.getByRole("heading", { name, exact: true }) });

test("a visitor sees /plans in euros, and the owner's new price shows there at once", async ({
  browser,
  page,
  baseURL,
  consoleWatch,
}, testInfo) => {
  // The refused form below answers 400, as it should.
  consoleWatch.allow(/status of 400 \(Bad Request\)/);
  const visitorContext = await browser.newContext({
    baseURL,
    locale: "de-DE",
    extraHTTPHeaders: { "Accept-Language": "de-DE,de;q=0.9", "X-Forwarded-For": "127.0.0.61" },
  });
  try {
    const visitor = await visitorContext.newPage();
    await visitor.addInitScript(() => window.localStorage.setItem("portico.chat.seen", "true"));
    const response = await visitor.goto("/plans");
    // The server's HTML already has the euro prices: no flash of USD before hydration.
    expect(await response!.text()).toMatch(/data-price-usd="49" data-currency="EUR">[^<]*€/);
    await expect(visitor.getByRole("heading", { name: "Care Plans", level: 1 })).toBeVisible();
    const essentials = cardOf(visitor, "Care Essentials");
    await expect(essentials.locator("[data-price-usd='49']").first()).toContainText("€");
    await expect(essentials.locator("[data-price-usd-beneath]").first()).toHaveText("$49.00 USD");
    await expect(essentials).toContainText("Yearly: 2 months free");
    await expect(essentials.getByRole("link", { name: /^Choose plan\s*: Care Essentials$/ })).toHaveAttribute(
      "href",
      /\/client\/plans\/subscribe\/care-essentials\?cycle=monthly$/,
    );
    await visitor.waitForLoadState("networkidle");
    await axe(visitor);

    // The owner makes a plan of this run's own (runs share the server), then changes its monthly price.
    const name = `Care Trial ${Date.now().toString(36)}${testInfo.repeatEachIndex}`;
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
    await expect(page.getByRole("link", { name: "Care Plus" })).toBeVisible();
    await axe(page);
    await page.getByRole("link", { name: "New plan" }).click();
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("A plan the browser test makes and changes.");
    await page.getByLabel("What is included (one per line)").fill("Monthly check\nSSL watch");
    await page.getByLabel("Monthly price (USD)").fill("30");
    await page.getByLabel("Yearly price (USD)").fill("300");
    await page.getByLabel("Support incidents included per period").fill("-1");
    await page.getByRole("button", { name: "Create plan" }).click();
    // Refused with its reason, and nothing typed is lost.
    await expect(page.getByText("The incident allowance cannot be negative")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(name);
    await page.getByLabel("Support incidents included per period").fill("1");
    await page.getByRole("button", { name: "Create plan" }).click();
    await expect(page.getByText("The plan is created.")).toBeVisible();
    await expect(page.getByRole("heading", { name: `Edit ${name}`, level: 1 })).toBeVisible();
    await axe(page);
    await page.getByLabel("Monthly price (USD)").fill("34.50");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText(`${name} is saved; the site shows the change now.`)).toBeVisible();
    await expect(page.getByLabel("Monthly price (USD)")).toHaveValue("34.50");

    // The visitor's page shows it, in euros with the USD beneath.
    await visitor.reload();
    const trial = cardOf(visitor, name);
    const monthly = trial.locator('[data-price-usd="34.5"]');
    await expect(monthly).toHaveAttribute("data-currency", "EUR");
    await expect(monthly).toContainText("€");
    await expect(trial.locator("[data-price-usd-beneath]").first()).toHaveText("$34.50 USD");

    // Taken off the site again, so the shared server's /plans holds the seeded plans only.
    await page.getByRole("button", { name: "Deactivate plan" }).click();
    await expect(page.getByText(`${name} is inactive: the site no longer shows it.`)).toBeVisible();
    await visitor.reload();
    await expect(cardOf(visitor, "Care Essentials")).toBeVisible();
    await expect(cardOf(visitor, name)).toHaveCount(0);
  } finally {
    await visitorContext.close();
  }
});
