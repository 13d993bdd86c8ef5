/**
 * The free domain check in a browser (issue 39, item 6): the page works without JavaScript (the form
 * posts to the server, which answers a refused name with its sentence on the field), and with it (focus
 * goes to the field at fault); axe finds nothing at 1280 and 390 px. This server has no domain world, so
 * a real name would ask the internet: only refused names are sent here (public-check.test.ts runs real
 * checks on loopback).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const axe = async (page: Page) => expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

const NIP_IO = "Enter the registered domain, nip.io, not 127.0.0.1.nip.io.";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the page explains the check, and a refused name comes back with its sentence", async ({
    page,
    consoleWatch,
  }) => {
    // The refused name's page is the server's answer with status 400, as it should be.
    consoleWatch.allow(/status of 400 \(Bad Request\)/);
    await page.goto("/check");
    await expect(page.getByRole("heading", { name: "Free domain check", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "What we check", level: 2 })).toBeVisible();
    await expect(page.getByText("We keep nothing: no history, no alerts")).toBeVisible();
    await page.getByLabel("Domain name").fill("127.0.0.1.nip.io");
    const [answer] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/check") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Check this domain" }).click(),
    ]);
    expect(answer.status()).toBe(400);
    const field = page.getByLabel("Domain name");
    await expect(page.getByText(NIP_IO)).toBeVisible();
    await expect(field).toHaveValue("127.0.0.1.nip.io");
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await expect(field).toHaveAccessibleDescription(new RegExp(NIP_IO.replaceAll(".", "\\.")));
    await expect(page.getByRole("heading", { name: /Result for/ })).toHaveCount(0);

    await page.getByLabel("Domain name").fill("169.254.169.254");
    await page.getByRole("button", { name: "Check this domain" }).click();
    await expect(page.getByText("An IP address is not a domain name")).toBeVisible();
  });
});

test("axe finds nothing on /check at 1280 and 390 px, before and after a refused name", async ({
  page,
  consoleWatch,
}) => {
  consoleWatch.allow(/status of 400 \(Bad Request\)/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto("/check");
    await page.waitForLoadState("networkidle");
    await axe(page);
    // With JavaScript: the answer arrives in place and focus goes to the field at fault.
    const field = page.getByLabel("Domain name");
    await field.fill("localhost");
    await page.getByRole("button", { name: "Check this domain" }).click();
    await expect(page.getByText("Enter the full domain name with its ending")).toBeVisible();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    await axe(page);
    // Nothing on the page is wider than a phone.
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  }
});
