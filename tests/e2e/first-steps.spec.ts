/**
 * A new client's first steps (issue 37, item 13): the password rules are listed once, before anything is
 * typed, wherever a password is chosen; the login after confirming the address has the address filled
 * in (from this browser's own registration, never from the query); the purchase, invoice, credit-note
 * and thank-you pages sit in the portal's frame; Mech's bubble covers neither the footer nor an
 * invoice's total on a phone; the services grid keeps its buttons inside the cards, opens
 * "+N more features", and does not repeat the catalogue's launch day on every card.
 */
import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, PASSWORD, signUp, unique } from "./clients";
import { expect, holdScripts, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** The rules as the list under a new-password field words them, in the spec's order. */
const RULES = [
  "At least 8 characters",
  "An uppercase letter",
  "A lowercase letter",
  "A number",
  "A special character (such as ! or ?)",
  "Not a common password",
];

async function expectNoAxeViolations(page: Page) {
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
}

/** Each rule once on the page, visible. */
async function expectRulesOnce(page: Page) {
  for (const rule of RULES) {
    await expect(page.getByText(rule, { exact: true }), rule).toHaveCount(1);
    await expect(page.getByText(rule, { exact: true }), rule).toBeVisible();
  }
}

async function register(page: Page, name: string, email: string) {
  await page.goto("/client/register");
  await page.getByLabel("Full Name").fill(name);
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/client\/verify-email$/);
}

test("the password rules are listed once, before anything is typed, on registration, reset and profile", async ({
  page,
  consoleWatch,
}) => {
  consoleWatch.allow(/status of 400/);
  // As the server sends the page, before its scripts run.
  const release = await holdScripts(page);
  await page.goto("/client/register", { waitUntil: "domcontentloaded" });
  await expectRulesOnce(page);
  release();
  await page.reload();
  await expectRulesOnce(page);
  // While typing and after a refused submit: still once each, the unmet ones marked.
  await page.getByLabel("Password", { exact: true }).fill("abc");
  await expect(page.getByText("Password strength: Weak")).toBeVisible();
  await expectRulesOnce(page);
  await expect(page.locator("[data-rule='length']")).toHaveAttribute("data-met", "false");
  await expect(page.locator("[data-rule='lowercase']")).toHaveAttribute("data-met", "true");
  await page.getByLabel("Full Name").fill("Rita Rules");
  await page.getByLabel("Email Address").fill(`rita.${unique()}@example.com`);
  await page.getByLabel("Confirm Password").fill("abc");
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Password must be at least 8 characters long")).toHaveCount(1);
  await expectRulesOnce(page);
  await expectNoAxeViolations(page);

  await page.goto("/client/reset-password?token=made-up-token");
  await expectRulesOnce(page);
  await expectNoAxeViolations(page);

  await signUp(page, "Rita Profile");
  await page.goto("/client/profile");
  await page.getByRole("tab", { name: "Security" }).click();
  await expectRulesOnce(page);
  await expectNoAxeViolations(page);
});

test("the login after confirming the address has the address filled in, from this browser's registration only", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = `vera.${unique()}@example.com`;
  await register(page, "Vera Verified", email);
  // Before the address is confirmed, the login form does not offer it.
  await page.goto("/client/login");
  await expect(page.getByLabel("Email Address")).toHaveValue("");
  await hook(page.request, "verify-user", { email });
  await page.goto("/client/verify-email");
  await expect(page.getByRole("heading", { name: "Email Verified!" })).toBeVisible();
  await expect(page).toHaveURL(/\/thank-you\?type=registration/);
  await page.getByRole("link", { name: "Go to Login" }).click();
  await expect(page).toHaveURL(/\/client\/login$/);
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
  // The verification email's link lands on /client/login?verified=true: the same.
  await page.goto("/client/login?verified=true");
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/client\/dashboard$/);

  // Another browser: nothing to offer, and the query is never the source.
  const other = await browser.newContext({ baseURL });
  try {
    const stranger = await other.newPage();
    await stranger.goto(`/client/login?verified=true&email=${encodeURIComponent(email)}`);
    await expect(stranger.getByLabel("Email Address")).toHaveValue("");
  } finally {
    await other.close();
  }
});

/** One main, the portal's sidebar navigation beside it, and no site header or footer. */
async function expectPortalFrame(page: Page) {
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Portal" }).first()).toBeAttached();
  await expect(page.locator("main")).toHaveCount(1);
  await expect(page.locator("main").getByRole("navigation", { name: "Portal" })).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Quick Links" })).toHaveCount(0);
  await expect(page.getByRole("complementary", { name: "Chat assistant" })).toHaveCount(0);
}

async function ownerRefunds(page: Page, invoiceId: string): Promise<string> {
  const owner = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  try {
    const p = await owner.newPage();
    await p.goto("/client/login");
    await p.getByLabel("Email Address").fill(adminFixtures().adminEmail);
    await p.getByLabel("Password", { exact: true }).fill(FIXTURE_PASSWORD);
    await p.getByRole("button", { name: "Sign In" }).click();
    await expect(p).toHaveURL(/\/admin\/dashboard$/);
    await p.goto(`/admin/invoices/${invoiceId}`);
    await p.getByLabel("Amount (USD)").fill("5");
    await p.getByLabel("Reason").fill("Frame check");
    await p.getByLabel(/Reference of the transfer back/).fill(`FR-${unique()}`);
    await p.getByRole("button", { name: "Refund…" }).click();
    await p.getByRole("button", { name: "Confirm the refund of $5.00" }).click();
    await expect(p.getByRole("status")).toContainText("credit note CN-");
    const href = await p.locator("a[href^='/admin/credit-notes/']").first().getAttribute("href");
    return href!.split("/").pop()!;
  } finally {
    await owner.close();
  }
}

test("the purchase, invoice and thank-you pages stay inside the portal's frame, for a signed-in client only", async ({
  page,
  browser,
  baseURL,
}) => {
  const email = await signUp(page, "Fran Frame");
  const { orders } = await hook<{ orders: Array<{ orderId: string; invoiceId: string }> }>(
    page.request,
    "orders",
    { email, status: "paid" },
  );
  const { orderId, invoiceId } = orders[0]!;

  await page.goto("/client/services");
  await page
    .locator("li[data-service-id]")
    .filter({ hasText: "SSL & HTTPS Setup" })
    .getByRole("link", { name: /^Purchase/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/client\/purchase\//);
  const purchaseUrl = page.url();
  await expectPortalFrame(page);
  await expectNoAxeViolations(page);
  for (const url of [`/client/invoice/${invoiceId}`, `/invoice/${invoiceId}`]) {
    await page.goto(url);
    await expectPortalFrame(page);
  }
  await expectNoAxeViolations(page);
  await page.goto(`/thank-you?type=payment&order_id=${orderId}&amount=10.00`);
  await expectPortalFrame(page);
  await expectNoAxeViolations(page);

  // A visitor's purchase page has no portal to show; a registration's thank-you is the public site's.
  const visitor = await browser.newContext({ baseURL });
  try {
    const v = await visitor.newPage();
    await v.goto(purchaseUrl);
    await expect(v.getByRole("button", { name: "Login to Purchase" })).toBeVisible();
    await expect(v.getByRole("navigation", { name: "Portal" })).toHaveCount(0);
    await expect(v.locator("main")).toHaveCount(1);
    await v.goto("/thank-you?type=registration");
    await expect(v.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(v.getByRole("navigation", { name: "Portal" })).toHaveCount(0);
    await expect(v.getByRole("navigation", { name: "Quick Links" })).toHaveCount(1);
    await expect(v.locator("main")).toHaveCount(1);
  } finally {
    await visitor.close();
  }
});

test("a credit note's page stays inside the portal's frame", async ({ page }) => {
  const email = await signUp(page, "Cora Credit");
  const { orders } = await hook<{ orders: Array<{ invoiceId: string }> }>(page.request, "orders", {
    email,
    status: "paid",
  });
  const creditNoteId = await ownerRefunds(page, orders[0]!.invoiceId);
  await page.goto(`/client/credit-notes/${creditNoteId}`);
  await expectPortalFrame(page);
  await expectNoAxeViolations(page);
});

/**
 * The texts of `targets` the bubble covers: those whose box meets the bubble's, where the page shows the
 * bubble (elementFromPoint at the bubble's box is the bubble: it is on top of whatever is there).
 */
async function coveredBy(bubble: Locator, targets: Locator): Promise<string[]> {
  const box = await bubble.boundingBox();
  expect(box).not.toBeNull();
  const onTop = await bubble.evaluate((el, b) => {
    const hit = document.elementFromPoint(b.x + b.width / 2, b.y + b.height / 2);
    return el.contains(hit);
  }, box!);
  expect(onTop, "the bubble is what the page shows at its own box").toBe(true);
  return targets.evaluateAll(
    (els, b) =>
      els
        .filter((el) => {
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) return false;
          return !(r.right <= b.x || r.left >= b.x + b.width || r.bottom <= b.y || r.top >= b.y + b.height);
        })
        .map((el) => (el.textContent ?? "").trim().slice(0, 40)),
    box!,
  );
}

test("Mech's bubble covers nothing of the footer at the end of a page on a phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const path of ["/", "/privacy"]) {
    await page.goto(path);
    const bubble = page.getByRole("button", { name: /Chat with/ });
    await expect(bubble).toBeVisible();
    await page.evaluate(() =>
      window.scrollTo({ top: document.documentElement.scrollHeight, behavior: "instant" }),
    );
    await expect
      .poll(() =>
        page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1),
      )
      .toBe(true);
    expect(await coveredBy(bubble, page.locator("footer").locator("h2, p, a, span, li"))).toEqual([]);
  }
});

test("an invoice's total is never under Mech's bubble on a phone", async ({ page }) => {
  await page.setViewportSize(PHONE);
  const email = await signUp(page, "Tom Total");
  const { orders } = await hook<{ orders: Array<{ invoiceId: string }> }>(page.request, "orders", { email });
  for (const url of [`/invoice/${orders[0]!.invoiceId}`, `/client/invoice/${orders[0]!.invoiceId}`]) {
    await page.goto(url);
    const total = page.getByTestId("invoice-total");
    await expect(total).toBeVisible();
    // In the portal's frame (its header's search; the sidebar is a drawer on a phone), which has no chat
    // (client-portal.md: hidden under /client/).
    await expect(
      page.getByRole("combobox", { name: "Search your orders, invoices, quotes and credit notes" }),
    ).toBeVisible();
    // Scrolled as a reader reaches it: at the bottom edge of the screen.
    await total.evaluate((el) => el.scrollIntoView({ block: "end", behavior: "instant" }));
    const bubble = page.getByRole("button", { name: /Chat with/ });
    if ((await bubble.count()) > 0) expect(await coveredBy(bubble, total)).toEqual([]);
    const shown = await total.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.right - 4, r.bottom - 4);
      return el.contains(hit) ? "the total" : `${hit?.outerHTML.slice(0, 120)} at ${Math.round(r.bottom)} px`;
    });
    expect(shown).toBe("the total");
  }
});

/** Boxes of `inner` that stick out of their card. */
async function outsideTheirCard(page: Page) {
  return page.locator("li[data-service-id]").evaluateAll((cards) =>
    cards.flatMap((card) => {
      const c = card.getBoundingClientRect();
      return [...card.querySelectorAll("a, .badge, summary")]
        .map((el) => ({ el, r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.left < c.left || r.right > c.right || r.top < c.top || r.bottom > c.bottom)
        .map(({ el }) => `${card.getAttribute("data-service-id")}: ${(el.textContent ?? "").trim()}`);
    }),
  );
}

test("the services grid keeps its buttons in the cards, opens '+N more features', and does not repeat the launch day", async ({
  page,
}) => {
  await signUp(page, "Gil Grid");
  for (const size of [DESKTOP, PHONE]) {
    await page.setViewportSize(size);
    // A currency with long amounts: the widest rows.
    await page.goto("/client/services");
    await page.getByLabel("Currency").selectOption("INR");
    await expect(page.locator("li[data-service-id] [data-currency='INR']").first()).toBeVisible();
    await expect(page.getByText("POPULAR").first()).toBeVisible();
    expect(await outsideTheirCard(page), `at ${size.width} px`).toEqual([]);
  }
  const ssl = page.locator("li[data-service-id]").filter({ hasText: "SSL & HTTPS Setup" });
  const more = ssl.getByText(/^\+\d+ more features$/);
  await expect(more).toBeVisible();
  const hiddenBefore = await ssl.locator("[data-more-features] li").count();
  expect(hiddenBefore).toBeGreaterThan(0);
  await expect(ssl.locator("[data-more-features] li").first()).toBeHidden();
  await more.click();
  await expect(ssl.locator("[data-more-features] li")).toHaveCount(hiddenBefore);
  for (const li of await ssl.locator("[data-more-features] li").all()) await expect(li).toBeVisible();
  // The seeded catalogue was added on one day: no card repeats it.
  await expect(page.locator("li[data-service-id]").getByText(/^Added /)).toHaveCount(0);
  await expectNoAxeViolations(page);
});
