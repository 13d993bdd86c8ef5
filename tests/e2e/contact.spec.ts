import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, holdScripts, test } from "./fixtures";

const TAIL = " Please try again or contact us directly at support@portico.example.";
let counter = 0;
/** The fetcher's post to the page's action (React Router's `.data` requests). */
const isActionPost = (url: URL) => url.pathname.endsWith(".data");
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** The contact section is a lazy chunk: with JavaScript on, wait until the form has hydrated. */
async function hydratedContactForm(page: Page) {
  const form = page.locator("#contact form");
  await expect(form).toHaveAttribute("novalidate", "");
  return form;
}

async function fillContact(page: Page, email: string, subject = "SSL renewal") {
  const form = page.locator("#contact form");
  await form.getByLabel("Your Name").fill("Grace Hopper");
  await form.getByLabel("Email Address").fill(email);
  await form.getByLabel("Subject").fill(subject);
  await form.getByLabel("Message").fill("Our certificate expires next week.");
  return form;
}

test("sends a message: required fields, sending state, success view, Back to Home", async ({
  page,
  consoleWatch,
}) => {
  // The server answers an incomplete message with 400, which the browser logs.
  consoleWatch.allow(/status of 400/);
  await page.goto("/#contact");
  const form = await hydratedContactForm(page);
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(page.locator("#contact").getByRole("alert")).toHaveText("Please fill in all required fields.");
  await expect(form.getByLabel("Your Name")).toBeFocused();

  const email = `grace.${unique()}@example.com`;
  await fillContact(page, email);
  // Hold the request until the sending state has been seen.
  let release!: () => void;
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(isActionPost, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    await held;
    await route.continue();
  });
  await form.getByRole("button", { name: "Send Message" }).click();
  const sending = form.getByRole("button", { name: "Sending Message..." });
  await expect(sending).toBeDisabled();
  release();

  const contact = page.locator("#contact");
  await expect(contact.getByRole("heading", { name: "Message Received!" })).toBeFocused();
  await expect(contact).toContainText(`A confirmation email has been sent to ${email}.`);
  await expect(contact.getByRole("link", { name: "Chat on WhatsApp" })).toHaveAttribute(
    "href",
    "https://wa.me/15550102030",
  );
  await expect(contact.getByRole("link", { name: /Call \+1 \(555\) 010-2030/ })).toHaveAttribute(
    "href",
    "tel:+15550102030",
  );
  const axe = await new AxeBuilder({ page }).include("#contact").analyze();
  expect(axe.violations).toEqual([]);

  await contact.getByRole("link", { name: "Back to Home" }).click();
  await expect(contact.getByRole("button", { name: "Send Message" })).toBeVisible();
  await expect(contact.getByLabel("Your Name")).toHaveValue("");

  // Both emails were queued and captured; the inbox shows them, HTML in a sandboxed frame.
  await page.goto("/dev/mail");
  await expect(page.getByRole("link", { name: "New contact message: SSL renewal" }).first()).toBeVisible();
  await page
    .getByRole("row")
    .filter({ hasText: email })
    .getByRole("link", { name: "We received your message" })
    .first()
    .click();
  await expect(page.getByRole("heading", { name: "We received your message" })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  const frame = page.frameLocator('iframe[title="HTML version"]');
  await expect(frame.getByRole("heading", { name: "Thank you for your message!" })).toBeVisible();
  await expect(frame.getByText("SSL renewal")).toHaveCount(0);
  await expect(frame.getByRole("link", { name: "Chat on WhatsApp" })).toHaveAttribute(
    "href",
    "https://wa.me/15550102030",
  );
});

test("a failed send keeps the form filled and shows the spec's error texts", async ({
  page,
  consoleWatch,
}) => {
  consoleWatch.allow(/status of (400|500)|ERR_FAILED|Failed to fetch/);
  await page.goto("/#contact");
  await hydratedContactForm(page);
  const email = `grace.${unique()}@example.com`;
  const form = await fillContact(page, email, "Certificate question");
  const alert = page.locator("#contact").getByRole("alert");
  const send = form.getByRole("button", { name: "Send Message" });

  // An address the shared zod schema refuses: the server's answer names the field.
  await form.getByLabel("Email Address").fill("grace@localhost");
  await send.click();
  await expect(alert).toHaveText("Please enter a valid email address.");
  await expect(form.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Email Address")).toBeFocused();
  await expect(form.getByLabel("Message")).toHaveValue("Our certificate expires next week.");
  await form.getByLabel("Email Address").fill(email);

  // A server that answers 500 without a body.
  await page.route(isActionPost, (route) =>
    route.request().method() === "POST" ? route.fulfill({ status: 500, body: "" }) : route.continue(),
  );
  await send.click();
  await expect(alert).toHaveText(`There was an error sending your message. Server error: 500${TAIL}`);
  await expect(form.getByLabel("Email Address")).toHaveValue(email);
  await expect(form.getByLabel("Message")).toHaveValue("Our certificate expires next week.");
  await expect(send).toBeEnabled();

  // No answer at all: the network dropped.
  await page.unroute(isActionPost);
  await page.route(isActionPost, (route) =>
    route.request().method() === "POST" ? route.abort("failed") : route.continue(),
  );
  await send.click();
  await expect(alert).toHaveText(
    `There was an error sending your message. Network error. Please check your connection.${TAIL}`,
  );
  await expect(form.getByLabel("Your Name")).toHaveValue("Grace Hopper");
  await expect(form.getByLabel("Subject")).toHaveValue("Certificate question");

  // Back online: the same, still filled form goes through.
  await page.unroute(isActionPost);
  await send.click();
  await expect(page.locator("#contact").getByRole("heading", { name: "Message Received!" })).toBeVisible();
});

test("keeps every field typed before the page hydrated, and sends it", async ({ page }) => {
  // Hold the page's scripts back, so the visitor types into the server-rendered form.
  const release = await holdScripts(page);
  await page.goto("/#contact", { waitUntil: "domcontentloaded" });
  const form = page.locator("#contact form");
  await expect(form).not.toHaveAttribute("data-hydrated", "true");
  const email = `early.${unique()}@example.com`;
  await form.getByLabel("Your Name").fill("Early Bird");
  await form.getByLabel("Email Address").fill(email);
  // A subject of its own: the captured mailbox is shared by every test (and every --repeat-each run).
  const subject = `Typed before hydration ${unique()}`;
  await form.getByLabel("Subject").fill(subject);
  await form.getByLabel("Message").fill("Every word typed before the scripts ran.");
  await expect(form).not.toHaveAttribute("data-hydrated", "true");

  release();
  await expect(form).toHaveAttribute("data-hydrated", "true");
  await expect(form.getByLabel("Your Name")).toHaveValue("Early Bird");
  await expect(form.getByLabel("Email Address")).toHaveValue(email);
  await expect(form.getByLabel("Subject")).toHaveValue(subject);
  await expect(form.getByLabel("Message")).toHaveValue("Every word typed before the scripts ran.");

  await form.getByRole("button", { name: "Send Message" }).click();
  const contact = page.locator("#contact");
  await expect(contact.getByRole("heading", { name: "Message Received!" })).toBeFocused();
  await expect(contact).toContainText(`A confirmation email has been sent to ${email}.`);
  // Without a reload: the page stayed where it was.
  expect(new URL(page.url()).pathname).toBe("/");

  // The message arrived: the owner's notification is in the captured mailbox.
  await page.goto("/dev/mail");
  await expect(page.getByRole("row").filter({ hasText: `New contact message: ${subject}` })).toHaveCount(1);
});

test("the newsletter box keeps an address typed before hydration", async ({ page }) => {
  const release = await holdScripts(page);
  await page.goto("/", { waitUntil: "domcontentloaded" });
  const blog = page.locator("#blog");
  const email = `early.reader.${unique()}@example.com`;
  await blog.getByLabel("Email address").fill(email);
  release();
  await expect(blog.locator("form")).toHaveAttribute("data-hydrated", "true");
  await expect(blog.getByLabel("Email address")).toHaveValue(email);
  await blog.getByRole("button", { name: "Subscribe" }).click();
  await expect(blog.getByRole("status")).toHaveText(
    `Thanks for subscribing! New articles will reach you at ${email}.`,
  );
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form posts and the page shows the result", async ({ page }) => {
    await page.goto("/");
    const email = `nojs.${unique()}@example.com`;
    const form = await fillContact(page, email, "No-JS enquiry");
    await form.getByRole("button", { name: "Send Message" }).click();
    const contact = page.locator("#contact");
    await expect(contact.getByRole("heading", { name: "Message Received!" })).toBeVisible();
    await expect(contact).toContainText(`A confirmation email has been sent to ${email}.`);
    await expect(page).toHaveURL(/#contact$/);
  });

  test("the newsletter box subscribes and confirms it", async ({ page }) => {
    await page.goto("/");
    const email = `reader.${unique()}@example.com`;
    const blog = page.locator("#blog");
    await blog.getByLabel("Email address").fill(email);
    await blog.getByRole("button", { name: "Subscribe" }).click();
    await expect(page.locator("#blog").getByRole("status")).toHaveText(
      `Thanks for subscribing! New articles will reach you at ${email}.`,
    );
  });
});

test("the newsletter box confirms a subscription without reloading, and knows a repeat", async ({ page }) => {
  // Mech opens by itself 3 s after a first visit and would cover the button on a slow machine.
  await page.addInitScript(() => window.localStorage.setItem("portico.chat.seen", "true"));
  await page.goto("/");
  const email = `reader.${unique()}@example.com`;
  const blog = page.locator("#blog");
  // The blog section hydrates from its own chunk: wait until the form is interactive.
  await expect(blog.locator("form")).toHaveAttribute("data-hydrated", "true");
  await blog.getByLabel("Email address").fill(email);
  // Submitted from the keyboard: on a busy machine the chat window opens itself (after 3 s) over the
  // bottom of the page and would take a pointer click meant for the button.
  await blog.getByLabel("Email address").press("Enter");
  const status = blog.getByRole("status");
  await expect(status).toHaveText(`Thanks for subscribing! New articles will reach you at ${email}.`);
  // The answer shows while the page's data is still being refreshed, and the button stays disabled
  // until then (Enter on a form whose button is disabled submits nothing): wait for it.
  const subscribe = blog.getByRole("button", { name: "Subscribe", exact: true });
  await expect(subscribe).toBeEnabled();
  await blog.getByLabel("Email address").press("Enter");
  await expect(status).toHaveText(`${email} is already subscribed. Thank you!`);
});
