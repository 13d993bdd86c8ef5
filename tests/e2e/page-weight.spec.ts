/**
 * How pages load, seen from the browser: the stylesheet and the icon sprite are files of their own,
 * requested once and kept across client-side navigations (ADR 0821, which replaced ADR 0810's inline
 * stylesheet), and the account forms' rules (zod) arrive only when a form is used, yet still check a
 * submit sent before they arrived (ADR 0810).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";

test("pages are styled by the stylesheet file and draw icons from the sprite, once for a visit", async ({
  page,
}) => {
  const stylesheets: string[] = [];
  const sprites: string[] = [];
  page.on("response", (r) => {
    if (r.request().resourceType() === "stylesheet") stylesheets.push(`${r.status()} ${r.url()}`);
    if (/\/assets\/icons-[\w-]+\.svg$/.test(r.url())) sprites.push(`${r.status()} ${r.url()}`);
  });
  await page.goto("/");
  expect(await page.locator("head style").count()).toBe(0);
  await expect(page.locator('head link[rel="stylesheet"]')).toHaveCount(1);
  // Tailwind's rules apply (the skip link is visually hidden, the header is fixed).
  await expect(page.locator("header").first()).toHaveCSS("position", "fixed");
  await expect(page.getByRole("link", { name: "Skip to content" })).toHaveCSS("position", "absolute");
  // An icon is a reference to the sprite, sized and stroked by the stylesheet.
  const icon = page.locator("header svg.icon use").first();
  await expect(icon).toHaveAttribute("href", /^\/assets\/icons-[\w-]+\.svg#[a-z0-9-]+$/);
  await expect(page.locator("header svg.icon").first()).toHaveCSS("stroke-linecap", "round");
  await expect.poll(() => sprites.length).toBe(1);
  expect(sprites[0]).toMatch(/^200 /);
  // The referenced symbol is drawn: its shapes have a size inside the <use>.
  expect(await icon.evaluate((el) => (el as SVGUseElement).getBBox().width)).toBeGreaterThan(0);

  // A client-side navigation keeps the stylesheet and the sprite: nothing is fetched again. Only once
  // the page has hydrated is a click one (before, the browser loads the next page itself: it did, once,
  // on a busy run).
  await expect(page.getByRole("banner")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect(page.locator('head link[rel="stylesheet"]')).toHaveCount(1);
  await expect(page.locator("header").first()).toHaveCSS("position", "fixed");
  expect(stylesheets).toHaveLength(1);
  expect(stylesheets[0]).toMatch(/^200 /);
  expect(sprites).toHaveLength(1);
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
