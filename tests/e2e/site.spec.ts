import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const ARTICLE = "/blog/spf-dkim-and-dmarc-explained-stop-your-emails-landing-in-spam";

/**
 * A fake clock that is paused before the page runs a single script: no page timer fires unless the
 * test moves the clock. Loading and hydrating still need a few timers (React reveals lazy sections on
 * one), so `runClockUntil` steps the clock in small increments until the page is ready: a timer the
 * page starts on the way is then at most one step old, however slow the machine is. (Pausing "250 ms
 * from now" after reading the page's clock raced the wall clock and failed on a loaded machine.)
 */
const CLOCK_START = new Date("2026-03-02T09:00:00Z").getTime();
const CLOCK_STEP_MS = 50;

async function installPausedClock(page: Page) {
  // pauseAt installs the fake clock itself; no install() first, whose clock would already be flowing
  // past CLOCK_START by the time the pause arrives ("Cannot fast-forward to the past").
  await page.clock.pauseAt(CLOCK_START);
}

/** Moves the paused clock forward by CLOCK_STEP_MS at a time until `ready` holds (at most 60 s of page time). */
async function runClockUntil(page: Page, ready: () => Promise<boolean>) {
  for (let elapsed = 0; elapsed <= 60_000; elapsed += CLOCK_STEP_MS) {
    if (await ready()) return;
    await page.clock.runFor(CLOCK_STEP_MS);
  }
  throw new Error("the page did not become ready within 60 s of page time");
}

/**
 * The home page hydrated on a flowing fake clock (as a visitor's does), then paused a day later.
 *
 * The lazy sections hydrate when their chunks arrive and React retries them; on a clock paused from the
 * first script, stepped by the test, the reviews section sometimes stayed dehydrated for the whole
 * minute while another spec loaded the server (the header had hydrated). So the carousel's tests let
 * the page load in real time and pause only once the carousel says it is live: a day ahead of the
 * clock's start, which the page cannot have reached, so the pause never races the wall clock. The jump
 * fires the carousel's pending timer once; each test then puts the carousel in a known state first.
 */
async function homeWithCarouselPaused(page: Page) {
  await page.clock.install({ time: CLOCK_START });
  await page.goto("/");
  const carousel = page.getByRole("region", { name: "Client testimonials" });
  // Its chunk arrives after the page's scripts: 2-5 s on a 2-core machine busy with other work.
  await expect(carousel).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await page.clock.pauseAt(CLOCK_START + 24 * 60 * 60 * 1000);
  return { carousel, active: carousel.locator('figure[data-active="true"]') };
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`)).toEqual([]);
}

test.describe("home page", () => {
  test("shows every section with the spec's texts and links", async ({ page }) => {
    await page.goto("/");
    const hero = page.locator("#home");
    for (const claim of ["50+ Happy Clients", "4.9/5 Rating", "100% Success Rate"]) {
      await expect(hero).toContainText(claim);
    }
    await expect(hero.getByRole("link", { name: "Contact Us" })).toHaveAttribute("href", "/#contact");
    await expect(hero.getByRole("link", { name: "View Services" })).toHaveAttribute("href", "#services");

    const services = page.locator("#services");
    const cards = services.locator("ul.grid > li");
    await expect(cards).toHaveCount(8);
    await expect(cards.first()).toContainText("Starting from");
    await expect(cards.first()).toContainText("$4.00");
    await expect(cards.first()).toContainText("24-48h delivery");
    await expect(cards.first()).toContainText("4.9/5");
    await expect(cards.nth(2)).toContainText("$7.00"); // SSL: lowest positive package price
    await expect(cards.first().getByRole("link", { name: /Learn More/ })).toHaveAttribute(
      "href",
      "/services/email-migration",
    );
    // Issue "quotes": #quote is a real quote request form, with a way to the contact section beside it.
    await expect(page.locator("#quote").getByRole("heading", { name: "Get Custom Quote" })).toBeVisible();
    await expect(page.locator("#quote").getByRole("button", { name: "Request a Quote" })).toBeVisible();
    await expect(page.locator("#quote").getByRole("link", { name: "Contact us" })).toHaveAttribute(
      "href",
      "/#contact",
    );

    const about = page.locator("#about");
    for (const item of [
      "Cloud migration and data transfer",
      "SSL install and renewal",
      "Pricing with no hidden fees",
    ]) {
      await expect(about).toContainText(item);
    }
    for (const value of ["Precision", "Fast Turnaround", "Secure"]) {
      await expect(about.getByRole("heading", { name: value })).toBeVisible();
    }

    const stats = page.locator("#reviews dl");
    for (const s of ["Happy Clients", "Average Rating", "Success Rate", "Response Time"])
      await expect(stats).toContainText(s);

    const blog = page.locator("#blog");
    await expect(blog.getByRole("article")).toHaveCount(6);
    await expect(blog.getByRole("link", { name: /SPF, DKIM and DMARC/ })).toHaveAttribute("href", ARTICLE);
    await expect(blog.getByRole("textbox", { name: "Email address" })).toBeVisible();
    await expect(blog.getByRole("button", { name: "Subscribe" })).toBeVisible();
    for (const img of await blog.getByRole("img").all()) {
      await expect(img).toHaveAttribute("width", "1200");
      await expect(img).toHaveAttribute("height", "630");
    }

    const contact = page.locator("#contact");
    await expect(contact.getByRole("link", { name: /support@portico\.example/ })).toHaveAttribute(
      "href",
      "mailto:support@portico.example",
    );
    await expect(contact.getByRole("link", { name: /WhatsApp/ })).toHaveAttribute(
      "href",
      /^https:\/\/wa\.me\//,
    );
    await expect(contact).toContainText("Mon-Fri: 9:00 AM - 6:00 PM EST");
    await expect(contact).toContainText("Sunday: Closed");
    await expect(contact).toContainText("Emergency support 24/7 for existing clients");
    await expect(
      page.getByRole("complementary", { name: "Quick contact" }).getByRole("link"),
    ).toHaveAttribute("href", "/#contact");
  });

  test("the carousel advances every 5 s, wraps, and has previous, next and dots", async ({ page }) => {
    const { carousel, active } = await homeWithCarouselPaused(page);
    // Focusing and leaving the carousel restarts its 5 s timer at a known moment.
    await carousel.getByRole("button", { name: "Show testimonial 1" }).click();
    await page.locator("#blog-heading").click();
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await page.clock.runFor(4_900);
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await page.clock.runFor(200);
    await expect(active).toHaveAttribute("aria-label", "2 of 5");
    for (const n of [3, 4, 5, 1]) {
      await page.clock.runFor(5_000);
      await expect(active).toHaveAttribute("aria-label", `${n} of 5`);
    }
    await page.mouse.move(0, 0);
    await carousel.getByRole("button", { name: "Previous testimonial" }).click();
    await expect(active).toHaveAttribute("aria-label", "5 of 5");
    await carousel.getByRole("button", { name: "Next testimonial" }).click();
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await carousel.getByRole("button", { name: "Show testimonial 3" }).click();
    await expect(active).toHaveAttribute("aria-label", "3 of 5");
    await expect(carousel.getByRole("button", { name: "Show testimonial 3" })).toHaveAttribute(
      "aria-current",
      "true",
    );
  });

  test("the carousel pauses while hovered or focused, and resumes after", async ({ page }) => {
    const { carousel, active } = await homeWithCarouselPaused(page);
    // Back to the first slide, the focus and the pointer outside the carousel, before hovering it.
    await carousel.getByRole("button", { name: "Show testimonial 1" }).click();
    await page.locator("#blog-heading").click();
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await carousel.hover();
    await page.clock.runFor(12_000);
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await page.mouse.move(0, 0);
    await carousel.getByRole("button", { name: "Next testimonial" }).focus();
    await page.clock.runFor(12_000);
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    // Keyboard use: Enter on the focused button moves one slide.
    await page.keyboard.press("Enter");
    await expect(active).toHaveAttribute("aria-label", "2 of 5");
    await page.locator("#blog-heading").click();
    await page.clock.runFor(5_100);
    await expect(active).toHaveAttribute("aria-label", "3 of 5");
  });

  test("the carousel does not auto-advance for reduced motion", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const { active } = await homeWithCarouselPaused(page);
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
    await page.clock.runFor(20_000);
    await expect(active).toHaveAttribute("aria-label", "1 of 5");
  });

  test("has no axe violations and no layout shift", async ({ page }) => {
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    await expectNoAxeViolations(page);
    const cls = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const e of list.getEntries() as Array<
              PerformanceEntry & { value: number; hadRecentInput: boolean }
            >) {
              if (!e.hadRecentInput) total += e.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          setTimeout(() => resolve(total), 500);
        }),
    );
    expect(cls).toBeLessThan(0.01);
  });
});

test.describe("Mech, the chat assistant", () => {
  // Mech's own tests start from a first visit: its "seen" flag is not primed.
  test.use({ chatSeen: false });

  test("opens by itself 3 s after a first visit, welcomes 1 s later, and answers by keyword", async ({
    page,
  }) => {
    await installPausedClock(page);
    await page.goto("/");
    const dialog = page.getByRole("dialog", { name: /Mech/ });
    // The launcher shows once the lazy widget has mounted and started its 3 s timer.
    const launcher = page.getByRole("button", { name: "Chat with Mech" });
    await runClockUntil(page, () => launcher.isVisible());
    await page.clock.runFor(1_250);
    await expect(dialog).toBeHidden();
    await page.clock.runFor(1_850);
    await expect(dialog).toBeVisible();
    const log = dialog.getByRole("log");
    await expect(log.locator("[data-sender]")).toHaveCount(0);
    await page.clock.runFor(1_000);
    await expect(log.locator('[data-sender="bot"]')).toHaveCount(1);
    await expect(log).toContainText("I'm Mech");

    const input = dialog.getByRole("textbox", { name: "Message Mech" });
    const send = dialog.getByRole("button", { name: "Send" });
    // Every input names its type (checkers flag a bare one); the SSR test in form-inputs.test.ts covers
    // the server-rendered forms, this one the widget that only exists in the browser.
    await expect(dialog.locator("input:not([type])")).toHaveCount(0);
    // Blank messages are refused.
    await input.fill("   ");
    await expect(send).toBeDisabled();
    await input.press("Enter");
    await expect(log.locator('[data-sender="user"]')).toHaveCount(0);

    await input.fill("How much is an SSL certificate?");
    await send.click();
    await expect(log.locator('[data-sender="user"]')).toHaveText(/How much is an SSL certificate\?/);
    await expect(dialog.getByTestId("typing")).toBeVisible();
    await page.clock.runFor(999);
    await expect(log.locator('[data-sender="bot"]')).toHaveCount(1);
    await page.clock.runFor(1_001);
    await expect(dialog.getByTestId("typing")).toBeHidden();
    await expect(log.locator('[data-sender="bot"]').last()).toContainText(
      "SSL certificates: single domain $149, multi-domain $299, wildcard $499",
    );
    expect(await page.evaluate(() => window.localStorage.getItem("portico.chat.seen"))).toBe("true");
  });

  test("minimises, restores and closes from the keyboard, and stays shut on the next visit", async ({
    page,
  }) => {
    await installPausedClock(page);
    await page.goto("/");
    const launcher = page.getByRole("button", { name: "Chat with Mech" });
    await runClockUntil(page, () => launcher.isVisible());
    await page.clock.runFor(3_100);
    const dialog = page.getByRole("dialog", { name: /Mech/ });
    await expect(dialog).toBeVisible();
    const minimize = dialog.getByRole("button", { name: "Minimize chat" });
    await minimize.focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("log")).toBeHidden();
    await page.keyboard.press("Enter");
    await expect(dialog.getByRole("log")).toBeVisible();
    await dialog.getByRole("button", { name: "Close chat" }).click();
    await expect(dialog).toBeHidden();
    await expect(launcher).toBeFocused();

    await page.reload();
    // The clock stays paused across the reload.
    await runClockUntil(page, () => launcher.isVisible());
    await page.clock.runFor(10_000);
    await expect(page.getByRole("dialog", { name: /Mech/ })).toBeHidden();
    await launcher.click();
    await expect(page.getByRole("textbox", { name: "Message Mech" })).toBeFocused();
    await page.clock.runFor(1_000);
    await expect(page.getByRole("log")).toContainText("I'm Mech");
  });

  test("does not open over a form the visitor is using", async ({ page }) => {
    await installPausedClock(page);
    await page.goto("/");
    const launcher = page.getByRole("button", { name: "Chat with Mech" });
    await runClockUntil(page, () => launcher.isVisible());
    const dialog = page.getByRole("dialog", { name: /Mech/ });
    const name = page.locator("#contact").getByLabel("Your Name");
    const subject = page.locator("#contact").getByLabel("Subject");

    // A field has focus: Mech waits, however long the visitor takes.
    await name.focus();
    await name.pressSequentially("Ada");
    await page.clock.runFor(10_000);
    await expect(dialog).toBeHidden();

    // Just typed, then left the field: Mech still waits a moment.
    await subject.focus();
    await subject.pressSequentially("Backups");
    await subject.evaluate((el) => (el as HTMLElement).blur());
    await page.clock.runFor(2_000);
    await expect(dialog).toBeHidden();

    // Quiet for a while with nothing focused: it opens, without taking focus or the typed text.
    await page.clock.runFor(4_000);
    await expect(dialog).toBeVisible();
    await expect(name).toHaveValue("Ada");
    await expect(subject).toHaveValue("Backups");
    await expect(dialog.getByRole("textbox", { name: "Message Mech" })).not.toBeFocused();
  });

  test("is hidden on /client/ routes", async ({ page }) => {
    await page.clock.install();
    await page.goto("/client/login");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.clock.runFor(5_000);
    await expect(page.getByRole("button", { name: "Chat with Mech" })).toHaveCount(0);
    await expect(page.getByRole("dialog", { name: /Mech/ })).toHaveCount(0);
  });
});

test.describe("service pages", () => {
  const PAGES = [
    { slug: "email-migration", steps: 5, faqs: 5, priced: true, text: "IMAP to Microsoft 365" },
    { slug: "email-deliverability", steps: 5, faqs: 5, priced: true, text: "DKIM" },
    { slug: "ssl-setup", steps: 4, faqs: 4, priced: true, text: "EV (Extended Validation)" },
    { slug: "cloud-management", steps: 3, faqs: 4, priced: true, text: "Microsoft 365" },
    { slug: "data-migration", steps: 6, faqs: 4, priced: true, text: "Go-Live" },
    { slug: "hosting-support", steps: 3, faqs: 4, priced: false, text: "Emergency Support" },
    { slug: "acronis-setup", steps: 2, faqs: 4, priced: true, text: "Test restore" },
    { slug: "per-incident-support", steps: 5, faqs: 5, priced: true, text: "Documentation" },
  ];
  for (const p of PAGES) {
    test(`/services/${p.slug} has its sections, process, FAQ, prices and calls to action`, async ({
      page,
    }) => {
      await page.goto(`/services/${p.slug}`);
      await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
      await expect(page.getByRole("link", { name: "Get Free Quote" }).first()).toHaveAttribute(
        "href",
        "/#quote",
      );
      await expect(page.getByRole("link", { name: "Contact Us" }).first()).toHaveAttribute(
        "href",
        "/#contact",
      );
      await expect(page.getByRole("link", { name: "Buy Now" })).toHaveAttribute(
        "href",
        `/client/purchase/${p.slug}`,
      );
      await expect(page.getByRole("main")).toContainText(p.text);
      await expect(page.locator('section[aria-labelledby="process-heading"] ol > li')).toHaveCount(p.steps);
      await expect(page.locator("details")).toHaveCount(p.faqs);
      await expect(page.getByRole("heading", { name: "Pricing" })).toHaveCount(p.priced ? 1 : 0);
      if (!p.priced) await expect(page.locator("[data-price-usd]")).toHaveCount(0);
      else await expect(page.locator("[data-price-usd]").first()).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test("the FAQ accordion works from the keyboard", async ({ page }) => {
    await page.goto("/services/email-migration");
    const first = page.locator("details").first();
    const summary = first.locator("summary");
    await expect(summary).toHaveText("What credentials do you need?");
    await expect(first.getByText(/Admin access/)).toBeHidden();
    await summary.focus();
    await page.keyboard.press("Enter");
    await expect(first.getByText(/Admin access/)).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(first.getByText(/Admin access/)).toBeHidden();
  });

  test("price cards link to purchase and hosting shows no prices", async ({ page }) => {
    await page.goto("/services/ssl-setup");
    const cards = page.locator('section[aria-labelledby="pricing-heading"] ul.grid > li');
    await expect(cards).toHaveCount(4);
    await expect(cards.first()).toContainText("$7.00");
    await expect(cards.first().getByRole("link", { name: /Order Now/ })).toHaveAttribute(
      "href",
      "/client/purchase/ssl-setup?package=free",
    );
    await page.goto("/services/hosting-support");
    await expect(page.locator("[data-price-usd]")).toHaveCount(0);
  });
});

test.describe("blog", () => {
  test("an article shows its details, body, share buttons and sidebar", async ({ page, context }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(ARTICLE);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(
      "SPF, DKIM and DMARC Explained: Stop Your Emails Landing in Spam",
    );
    const main = page.getByRole("main");
    await expect(main).toContainText("Email Security");
    await expect(main).toContainText("Portico IT Services");
    await expect(main).toContainText("January 28, 2025");
    await expect(main).toContainText("7 min read");
    await expect(
      main.getByRole("heading", { level: 2, name: "DKIM: the message was not changed" }),
    ).toBeVisible();
    await expect(main.getByRole("img", { name: /Illustration/ })).toHaveAttribute("width", "1200");
    const sidebar = page.getByRole("complementary", { name: "Related" });
    await expect(sidebar.getByRole("link", { name: "Email Migration Service" })).toHaveAttribute(
      "href",
      "/services/email-migration",
    );
    await expect(sidebar.getByRole("link", { name: "Get Free Quote" })).toHaveAttribute("href", "/#quote");
    await expect(main.getByRole("link", { name: /LinkedIn/ })).toHaveAttribute(
      "href",
      /linkedin\.com\/sharing\/share-offsite\/\?url=http/,
    );
    await expect(main.getByRole("link", { name: /X \(Twitter\)/ })).toHaveAttribute(
      "href",
      /twitter\.com\/intent\/tweet/,
    );
    await main.getByRole("button", { name: "Copy Link" }).click();
    await expect(main.getByRole("status")).toHaveText("Link copied!");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/blog\/spf-dkim-and-dmarc/);
    await expectNoAxeViolations(page);
  });

  test("an unknown slug says 'Blog Post Not Found' with a 404", async ({ page, consoleWatch }) => {
    consoleWatch.allow(/status of 404/);
    const res = await page.goto("/blog/no-such-post");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Blog Post Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "Return to Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("thank-you page", () => {
  test("registration: welcome, verify line, Go to Login and What's Next", async ({ page }) => {
    await page.goto("/thank-you?type=registration&email=ann%40example.com&name=Ann");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Welcome, Ann!");
    await expect(page.getByRole("main")).toContainText("Please check your email to verify your account");
    await expect(page.getByRole("main")).toContainText("ann@example.com");
    await expect(page.getByRole("link", { name: "Go to Login" })).toHaveAttribute("href", "/client/login");
    await expect(page.getByRole("heading", { name: "What's Next" })).toBeVisible();
    await expect(page.locator('section[aria-labelledby="next-heading"] li')).toHaveCount(3);
    await expectNoAxeViolations(page);
  });

  test("payment: View Dashboard and Download Invoice", async ({ page }) => {
    await page.goto("/thank-you?type=payment&email=ann%40example.com");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank You!");
    await expect(page.getByRole("main")).toContainText("A confirmation has been sent to ann@example.com.");
    await expect(page.getByRole("link", { name: "View Dashboard" })).toHaveAttribute(
      "href",
      "/client/dashboard",
    );
    await expect(page.getByRole("link", { name: "Download Invoice" })).toHaveAttribute(
      "href",
      "/client/invoices",
    );
    await expect(page.getByRole("link", { name: "Go to Login" })).toHaveCount(0);
  });

  test("other (and anything unknown): a generic thank-you with Go Home", async ({ page }) => {
    await page.goto("/thank-you?type=bogus");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Thank You!");
    await expect(page.getByRole("main")).not.toContainText("Please check your email");
    await expect(page.getByRole("link", { name: "Go Home" })).toHaveAttribute("href", "/");
    await expect(page.getByRole("link", { name: "View Dashboard" })).toHaveCount(0);
  });
});

test.describe("legal pages", () => {
  for (const [path, title] of [
    ["/privacy", "Privacy Policy"],
    ["/terms", "Terms of Service"],
  ] as const) {
    test(`${path} has real text with the business identity`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
      await expect(page.getByRole("main")).toContainText("Portico IT Services");
      await expect(
        page.getByRole("main").getByRole("link", { name: "support@portico.example" }).first(),
      ).toBeVisible();
      expect(((await page.getByRole("main").textContent()) ?? "").split(/\s+/).length).toBeGreaterThan(300);
      await expectNoAxeViolations(page);
    });
  }
});
