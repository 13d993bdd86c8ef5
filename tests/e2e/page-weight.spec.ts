/**
 * What ADR 0810 changed in how pages load, seen from the browser: the stylesheet is inline (allowed by
 * its CSP hash, and still there after client-side navigation), and the account forms' rules
 * (zod) arrive only when a form is used, yet still check a submit sent before they arrived.
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";

test("pages are styled by the inline stylesheet, before and after a client-side navigation", async ({
  page,
}) => {
  const stylesheets: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "stylesheet") stylesheets.push(r.url());
  });
  await page.goto("/");
  const style = page.locator("head style#portico-css");
  await expect(style).toHaveCount(1);
  expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
  // Tailwind's rules apply (the skip link is visually hidden, the header is fixed).
  await expect(page.locator("header").first()).toHaveCSS("position", "fixed");
  await expect(page.getByRole("link", { name: "Skip to content" })).toHaveCSS("position", "absolute");

  // A client-side navigation keeps the same stylesheet element and its rules.
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.locator("head style#portico-css")).toHaveCount(1);
  expect(
    await page.locator("head style#portico-css").evaluate((el) => el.textContent?.length ?? 0),
  ).toBeGreaterThan(10_000);
  await expect(page.locator("header").first()).toHaveCSS("position", "fixed");
  expect(stylesheets).toEqual([]);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

test("the sign-in form's rules load when the form is used and check a submit sent before they arrive", async ({
  page,
}) => {
  const rulesRequested: string[] = [];
  const posts: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/(forms|schemas)-[^/]+\.js$/.test(r.url())) rulesRequested.push(r.url());
    if (r.method() === "POST") posts.push(r.url());
  });
  // Hold the rules until the submit has been made.
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(/\/assets\/(forms|schemas)-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto("/client/login");
  await page.waitForLoadState("networkidle");
  expect(rulesRequested, "rules fetched with the page").toEqual([]);

  // Using the form fetches them; a submit before they arrive waits for them.
  await page.getByLabel("Email Address").focus();
  await expect.poll(() => rulesRequested.length).toBeGreaterThan(0);
  await page.getByRole("button", { name: "Sign In" }).click();
  release();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  expect(posts, "the browser's check stopped the empty form").toEqual([]);
});

test("the forgot-password form checks the address in the browser with the rules fetched on use", async ({
  page,
}) => {
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  await page.goto("/client/forgot-password");
  await page.getByLabel("Email Address").fill("not-an-address");
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  expect(posts).toEqual([]);
  await page.getByLabel("Email Address").fill("someone@example.com");
  await expect(page.getByText("Please enter a valid email address")).toBeHidden();
});

test("the page's scripts are requested only after the HTML is parsed, and the page then hydrates", async ({
  page,
}) => {
  for (const path of ["/", "/services/ssl-setup"]) {
    await page.goto(path);
    await expect(page.getByRole("banner")).toHaveAttribute("data-hydrated", "true");
    const { parsedAt, scripts } = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      return {
        parsedAt: nav.domContentLoadedEventStart,
        scripts: performance
          .getEntriesByType("resource")
          .filter((r) => /\/assets\/.+\.js$/.test(r.name))
          .map((r) => ({ name: r.name, startTime: r.startTime })),
      };
    });
    expect(scripts.length, path).toBeGreaterThan(2);
    // ADR 0811: nothing competes with the document; every script starts after DOMContentLoaded.
    for (const s of scripts) expect(s.startTime, s.name).toBeGreaterThanOrEqual(parsedAt);
  }
});

test("a page served from the cache (no nonce, scripts allowed by hash) hydrates with no CSP violation", async ({
  page,
}) => {
  const violations: string[] = [];
  await page.exposeFunction("reportViolation", (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      (window as unknown as { reportViolation(v: string): void }).reportViolation(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    );
  });
  const path = "/services/data-migration";
  await page.request.get(path);
  // The answer is stored once compressed, just after its first render.
  await expect
    .poll(async () => (await page.request.get(path)).headers()["x-page-cache"], { timeout: 15_000 })
    .toBe("hit");
  const res = await page.goto(path);
  expect(res?.headers()["x-page-cache"]).toBe("hit");
  expect(res?.headers()["content-security-policy"]).not.toContain("'nonce-");
  await expect(page.getByRole("banner")).toHaveAttribute("data-hydrated", "true");
  expect(violations).toEqual([]);
});
