/**
 * On a 390 px wide phone no page scrolls sideways: `document.documentElement.scrollWidth <= innerWidth`
 * on every page of app/routes.ts, asked by a visitor, a client and the owner (each sees the pages it may
 * and the redirect or 404 page of the others). The route list is app/routes.ts itself, so a new page is
 * covered at once; a new route parameter without a value below fails the test. Wide content (tables, tab
 * rows) scrolls inside its own box, never the page.
 *
 * The lists (orders, invoices, quotes; the client's and the owner's) are stacked cards on a phone: every
 * field of a row on the screen, labelled by its column's header (issue 37, item 7).
 *
 * PHONE_SCREENSHOTS=<folder> also saves a full-page screenshot of every page, to look at;
 * LIST_SCREENSHOTS=<folder> saves the lists at 390 and 1280 px (docs/screenshots/lists-*.png).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "~/routes";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { hook, signUp } from "./clients";
import { expect, test } from "./fixtures";

const PHONE = { width: 390, height: 844 };
const PASSWORD = "Str0ng!Passw0rd";

/** Every page route of app/routes.ts: modules with a page (.tsx), not resource routes (.ts). */
function pagePatterns(entries: RouteConfigEntry[], prefix = ""): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const full = e.index ? prefix : e.path ? (prefix ? `${prefix}/${e.path}` : e.path) : prefix;
    if ((e.index || e.path !== undefined) && e.file.endsWith(".tsx")) out.push(full);
    if (e.children) out.push(...pagePatterns(e.children, full));
  }
  return out;
}

type Actor = "visitor" | "client" | "owner";

interface Ids {
  serviceId: string;
  /** A care plan (issue 38): its editor, not the new plan's page. */
  planId: string;
  slug: string;
  orderId: string;
  invoiceId: string;
  creditNoteId: string;
  quoteId: string;
  messageId: string;
  clientId: string;
  emailId: string;
  sandboxSession: string;
  /** A change to a care plan: this client has none, so its page is the 404 (plan-renewal.spec walks a real one at 390 px). */
  subscriptionId: string;
  change: string;
  /** A watched domain (issue 39): this client has none, so its page is the 404 (domain-watch.spec walks a real one at 390 px). */
  domainId: string;
}

/** The URL to visit for a route pattern, with real ids for its parameters. */
function urlFor(pattern: string, ids: Ids): string {
  const filled = pattern
    .split("/")
    .map((part) => {
      if (part === "*") return "no-such-page";
      if (!part.startsWith(":")) return part;
      const name = part.slice(1).replace(/\?$/, "") as keyof Ids;
      const value = ids[name];
      if (!value)
        throw new Error(`no value for :${name} (route ${pattern}): add one to the phone-width test`);
      return encodeURIComponent(value);
    })
    .join("/");
  // The sandbox provider's hosted checkout shows a real checkout session.
  const query = pattern === "payments/sandbox/checkout" ? `?session=${ids.sandboxSession}` : "";
  return `/${filled}${query}`;
}

async function newPhone(browser: Browser, baseURL: string, address: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    // Not isMobile: a mobile browser widens its layout viewport to fit a too-wide page (innerWidth then
    // grows with scrollWidth), which would hide the overflow this test measures.
    viewport: PHONE,
    extraHTTPHeaders: { "x-forwarded-for": address },
  });
  // Mech, the chat assistant, stays shut (it opens by itself on a first visit).
  await context.addInitScript(() => window.localStorage.setItem("portico.chat.seen", "true"));
  return context;
}

async function signIn(page: Page, email: string, password: string, lands: RegExp) {
  await page.goto("/client/login");
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(lands);
}

/** The last path segment of the first link on `url` whose address starts with `prefix`. */
async function firstIdLinked(page: Page, url: string, prefix: string): Promise<string> {
  await page.goto(url);
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute("href");
  const id = href?.slice(prefix.length).split(/[?#/]/)[0];
  if (!id) throw new Error(`no link to ${prefix}… on ${url}`);
  return id;
}

interface Overflow {
  actor: Actor;
  url: string;
  landedOn: string;
  scrollWidth: number;
  /** The elements that stick out past the viewport's right edge, each inside a parent that does not. */
  culprits: string[];
}

/** Where a too-wide page sticks out: for the failure message. */
function culprits(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const sticksOut = (el: Element) => el.getBoundingClientRect().right > width + 0.5;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}.${String(el.getAttribute("class") ?? "")
        .split(/\s+/)
        .slice(0, 4)
        .join(
          ".",
        )} ${Math.round(el.getBoundingClientRect().width)}px "${(el.textContent ?? "").trim().slice(0, 30)}"`;
    // An element inside a scrolling (or clipping) box that fits does not widen the page.
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (getComputedStyle(a).overflowX !== "visible" && !sticksOut(a)) return true;
      }
      return false;
    };
    const widening = (el: Element | null): el is Element => Boolean(el && sticksOut(el) && !clipped(el));
    return [...document.body.querySelectorAll("*")]
      .filter((el) => widening(el) && !widening(el.parentElement))
      .slice(0, 5)
      .map(name);
  });
}

test("no page scrolls sideways on a 390 px wide phone", async ({ browser, baseURL }) => {
  // About 150 page loads (every page, three times).
  test.setTimeout(300_000);
  const patterns = pagePatterns(routes);
  expect(patterns.length).toBeGreaterThan(40);
  const base = baseURL!;
  const shots = process.env.PHONE_SCREENSHOTS;
  if (shots) mkdirSync(shots, { recursive: true });

  const contexts: Record<Actor, BrowserContext> = {
    visitor: await newPhone(browser, base, "127.39.0.1"),
    client: await newPhone(browser, base, "127.39.0.2"),
    owner: await newPhone(browser, base, "127.39.0.3"),
  };
  const pages = {
    visitor: await contexts.visitor.newPage(),
    client: await contexts.client.newPage(),
    owner: await contexts.owner.newPage(),
  };
  try {
    // A client of their own with an order and its invoice (registered, confirmed through the test hook).
    const client = pages.client;
    const email = `phone.width.${Date.now()}@example.com`;
    await client.goto("/client/register");
    await client.getByLabel("Full Name").fill("Phoebe Narrowscreen");
    await client.getByLabel("Email Address").fill(email);
    await client.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await client.getByLabel("Confirm Password").fill(PASSWORD);
    await client.getByRole("button", { name: "Create Account" }).click();
    await expect(client).toHaveURL(/\/client\/verify-email$/);
    expect((await client.request.post("/api/test-hooks/verify-user", { data: { email } })).status()).toBe(
      200,
    );
    await signIn(client, email, PASSWORD, /\/client\/dashboard$/);
    const made = await client.request.post("/api/test-hooks/orders", { data: { email, count: 1 } });
    expect(made.status()).toBe(200);
    const { orders } = (await made.json()) as { orders: Array<{ orderId: string; invoiceId: string }> };
    const { orderId, invoiceId } = orders[0]!;
    // A paid invoice of the client's, for the owner to refund part of: the credit note's pages.
    const paid = await client.request.post("/api/test-hooks/orders", {
      data: { email, count: 1, status: "paid" },
    });
    expect(paid.status()).toBe(200);
    const paidInvoiceId = ((await paid.json()) as { orders: Array<{ invoiceId: string }> }).orders[0]!
      .invoiceId;
    // A quote sent to the client, with a long line and a deposit: the quote's page.
    const quoted = await client.request.post("/api/test-hooks/quote", {
      data: {
        email,
        lines: [
          {
            description: "Migration of every mailbox, shared drive and calendar",
            quantity: 40,
            unitPrice: "12.50",
          },
        ],
        depositPercent: 30,
        terms: "Half now, half later.",
      },
    });
    expect(quoted.status()).toBe(200);
    const quoteId = ((await quoted.json()) as { id: string }).id;

    // A visitor's message to the owner (the contact form), for the back office's message page.
    const visitor = pages.visitor;
    await visitor.goto("/#contact");
    const form = visitor.locator("#contact form");
    await expect(form).toHaveAttribute("novalidate", "");
    await form.getByLabel("Your Name").fill("Narrow Screen");
    await form.getByLabel("Email Address").fill(`phone.visitor.${Date.now()}@example.com`);
    await form.getByLabel("Subject").fill("Phone layout");
    await form.getByLabel("Message").fill("Does the site fit my phone?");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect(visitor.locator("#contact")).toContainText("Thank you for reaching out");
    const slug = await firstIdLinked(visitor, "/", "/blog/");

    // The client's Pay Now opens a real checkout session of the sandbox provider.
    await client.goto(`/client/invoice/${invoiceId}`);
    await client.getByRole("button", { name: "Pay Now" }).click();
    await expect(client).toHaveURL(/\/payments\/sandbox\/checkout\?session=/);
    const sandboxSession = new URL(client.url()).searchParams.get("session")!;

    const owner = pages.owner;
    await signIn(owner, adminFixtures().adminEmail, FIXTURE_PASSWORD, /\/admin\/dashboard$/);
    await owner.goto(`/admin/invoices/${paidInvoiceId}`);
    await owner.getByLabel("Amount (USD)").fill("5");
    await owner.getByLabel("Reason").fill("Phone layout check");
    await owner.getByLabel(/Reference of the transfer back/).fill("PW-BACK-1");
    await owner.getByRole("button", { name: "Refund…" }).click();
    await owner.getByRole("button", { name: "Confirm the refund of $5.00" }).click();
    await expect(owner.getByRole("status")).toContainText("credit note CN-");
    const ids: Ids = {
      serviceId: await firstIdLinked(owner, "/admin/catalogue", "/admin/catalogue/"),
      // The list's first row (the "New plan" link comes before it).
      planId: await firstIdLinked(owner, "/admin/plans", "/admin/plans/").then(() =>
        owner
          .locator('main table a[href^="/admin/plans/"]')
          .first()
          .getAttribute("href")
          .then((href) => href!.slice("/admin/plans/".length)),
      ),
      slug,
      orderId,
      invoiceId,
      creditNoteId: await firstIdLinked(owner, `/admin/invoices/${paidInvoiceId}`, "/admin/credit-notes/"),
      quoteId,
      messageId: await firstIdLinked(owner, "/admin/messages", "/admin/messages/"),
      clientId: await firstIdLinked(
        owner,
        `/admin/clients?q=${encodeURIComponent(email)}`,
        "/admin/clients/",
      ),
      emailId: await firstIdLinked(owner, "/dev/mail", "/dev/mail/"),
      sandboxSession,
      subscriptionId: "00000000-0000-4000-8000-000000000000",
      domainId: "00000000-0000-4000-8000-000000000000",
      change: "cancel",
    };

    const overflows: Overflow[] = [];
    let visited = 0;
    for (const actor of ["visitor", "client", "owner"] as const) {
      const page = pages[actor];
      for (const pattern of patterns) {
        const url = urlFor(pattern, ids);
        const res = await page.goto(url);
        expect(res?.status() ?? 0, `${actor} ${url}`).toBeLessThan(500);
        await page.evaluate(() => document.fonts.ready);
        const { scrollWidth, innerWidth } = await page.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(innerWidth).toBe(PHONE.width);
        visited++;
        if (scrollWidth > innerWidth) {
          overflows.push({
            actor,
            url,
            landedOn: new URL(page.url()).pathname,
            scrollWidth,
            culprits: await culprits(page),
          });
        }
        if (shots) {
          const name = `${actor}-${pattern.replace(/[/:*]+/g, "_") || "home"}.png`;
          await page.screenshot({ path: path.join(shots, name), fullPage: true });
        }
      }
    }
    expect(visited).toBe(patterns.length * 3);
    expect(overflows).toEqual([]);
  } finally {
    for (const context of Object.values(contexts)) await context.close();
  }
});

test("on a phone the back office's sidebar is a drawer, used from the keyboard", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, adminFixtures().adminEmail, FIXTURE_PASSWORD, /\/admin\/dashboard$/);
  const nav = page.getByRole("navigation", { name: "Back office" });
  await expect(nav).toBeHidden();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  // The Menu button is the first stop after "Skip to content".
  await page.reload();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Menu", { exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  for (const label of ["Dashboard", "Orders", "Invoices", "Messages", "Clients", "Catalogue", "Audit log"]) {
    await expect(nav.getByRole("link", { name: label })).toBeInViewport();
  }
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  if (process.env.PHONE_SCREENSHOTS) {
    await page.screenshot({ path: path.join(process.env.PHONE_SCREENSHOTS, "owner-drawer-open.png") });
  }
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Close menu" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Dashboard" })).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(nav.getByRole("link", { name: "Orders" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await expect(nav).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
});

test("on a phone every profile tab is in sight and the arrow keys still move between them", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signIn(page, adminFixtures().completeOrder.clientEmail, FIXTURE_PASSWORD, /\/client\/dashboard$/);
  await page.goto("/client/profile");
  const tabs = page.getByRole("tablist", { name: "Profile settings" }).getByRole("tab");
  await expect(tabs).toHaveCount(4);
  for (const tab of await tabs.all()) await expect(tab).toBeInViewport({ ratio: 1 });
  await tabs.first().click();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Privacy" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Privacy" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
});

/**
 * The first row of every table on the page: each cell that has something in it is visible, inside the
 * phone's width, with nothing sticking out of it, and labelled by its column's header.
 */
async function expectFirstRowsOnScreen(page: Page, url: string) {
  const tables = page.locator("main table");
  const count = await tables.count();
  expect(count, url).toBeGreaterThan(0);
  for (let t = 0; t < count; t++) {
    const table = tables.nth(t);
    const head = await table.locator("thead th").allTextContents();
    const cells = table.locator("tbody tr").first().locator("td");
    await expect(cells, url).toHaveCount(head.length);
    for (let i = 0; i < head.length; i++) {
      const cell = cells.nth(i);
      const what = `${url}, table ${t + 1}, ${head[i]}`;
      const shown = await cell.evaluate((el) => ({
        empty: el.childNodes.length === 0,
        fits: el.scrollWidth <= el.clientWidth,
        label: getComputedStyle(el, "::before").content,
      }));
      if (shown.empty) continue;
      await expect(cell, what).toBeVisible();
      const box = (await cell.boundingBox())!;
      expect(box.x, what).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, what).toBeLessThanOrEqual(PHONE.width);
      expect(shown.fits, what).toBe(true);
      expect(shown.label, what).toBe(JSON.stringify(head[i]));
    }
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth), url).toBeLessThanOrEqual(
    PHONE.width,
  );
  expect((await new AxeBuilder({ page }).analyze()).violations, url).toEqual([]);
}

async function listScreenshots(page: Page, who: string, url: string) {
  const folder = process.env.LIST_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  const name = `lists-${who}-${url.split("/").pop()}`;
  // The top of the page, down to the list's first rows (the shared test server's lists are long).
  const shoot = async (width: number, height: number) => {
    const full = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.screenshot({
      path: path.join(folder, `${name}-${width}.png`),
      fullPage: true,
      clip: { x: 0, y: 0, width, height: Math.min(full, height) },
    });
  };
  await shoot(PHONE.width, 1400);
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(1280, 900);
  await page.setViewportSize(PHONE);
}

test("on a phone every list row is a card with each field on the screen, labelled, and Pay Now", async ({
  browser,
  baseURL,
}) => {
  // Six lists, each checked cell by cell and by axe (and photographed twice with LIST_SCREENSHOTS).
  test.setTimeout(240_000);
  const client = await (await browser.newContext({ baseURL, viewport: PHONE })).newPage();
  const owner = await (await browser.newContext({ baseURL, viewport: PHONE })).newPage();
  try {
    const email = await signUp(client, "Phoebe Stacked Rows");
    await hook(client.request, "orders", { email, status: "completed", amountUsd: 1234.5 });
    await hook(client.request, "orders", { email, status: "pending", amountUsd: 10 });
    await hook(client.request, "quote", {
      email,
      name: "Phoebe Stacked Rows",
      lines: [
        { description: "Migration of every mailbox and shared drive", quantity: 40, unitPrice: "12.50" },
      ],
      depositPercent: 30,
      terms: "Half now, half later.",
    });
    for (const url of ["/client/orders", "/client/invoices", "/client/quotes"]) {
      await client.goto(url);
      await expectFirstRowsOnScreen(client, url);
      await listScreenshots(client, "client", url);
    }
    // The newest invoice is the unpaid one: its Pay Now is on the screen.
    await client.goto("/client/invoices");
    const payNow = client
      .locator("main tbody tr")
      .first()
      .getByRole("button", { name: /Pay Now/ });
    await payNow.scrollIntoViewIfNeeded();
    await expect(payNow).toBeInViewport({ ratio: 1 });
    // The header's search box and its placeholder fit.
    // (A search box with suggestions is a combobox.)
    const search = client.getByRole("combobox", { name: /Search your orders/ });
    await expect(search).toHaveAttribute("placeholder", "Search…");
    const room = await search.evaluate((el: HTMLInputElement) => {
      const style = getComputedStyle(el);
      const context = document.createElement("canvas").getContext("2d")!;
      context.font = style.font;
      const inner = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return inner - context.measureText(el.placeholder).width;
    });
    expect(room).toBeGreaterThanOrEqual(0);

    await signIn(owner, adminFixtures().adminEmail, FIXTURE_PASSWORD, /\/admin\/dashboard$/);
    for (const url of ["/admin/orders", "/admin/invoices", "/admin/quotes"]) {
      await owner.goto(url);
      await expectFirstRowsOnScreen(owner, url);
      await listScreenshots(owner, "owner", url);
    }
  } finally {
    await client.context().close();
    await owner.context().close();
  }
});
