import { expect, test } from "./fixtures";

test.describe("a visitor whose browser asks for British English", () => {
  test.use({ locale: "en-GB" });

  test("sees pounds with the USD amount beneath on a service page, rendered by the server", async ({
    page,
    baseURL,
  }) => {
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const response = await page.goto("/services/ssl-setup");
    // The server's HTML already has the local price: no flash of USD before hydration.
    const html = await response!.text();
    expect(html).toContain('data-price-usd="10" data-currency="GBP">£7.90</span>');

    const pricing = page.getByRole("region", { name: "Pricing" });
    const card = pricing
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Single Domain" }) });
    await expect(card.locator("[data-price-usd='10']")).toHaveText("£7.90");
    await expect(card.locator("[data-price-usd-beneath]")).toHaveText("$10.00 USD");
    await expect(pricing).not.toContainText("...");
    await expect(pricing).not.toContainText("$7.90");

    // After hydration the prices are unchanged and the browser has talked to no one but the site.
    await page.waitForLoadState("networkidle");
    await expect(card.locator("[data-price-usd='10']")).toHaveText("£7.90");
    const origin = new URL(baseURL!).origin;
    expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith("data:"))).toEqual([]);
  });

  test("sees the starting prices of the home page in pounds", async ({ page }) => {
    await page.goto("/");
    const card = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "SSL & HTTPS Setup" }) });
    await expect(card.getByText("Starting from")).toContainText("£5.53");
  });
});

test("a visitor without a region in Accept-Language sees US dollars only", async ({ browser, baseURL }) => {
  const context = await browser.newContext({
    baseURL,
    locale: "en",
    extraHTTPHeaders: { "Accept-Language": "en" },
  });
  const page = await context.newPage();
  await page.goto("/services/per-incident-support");
  await expect(page.locator("[data-price-usd='20']").first()).toHaveText("$20.00");
  await expect(page.locator("[data-price-usd-beneath]")).toHaveCount(0);
  await context.close();
});
