import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const TAIL = " Please try again or contact us directly at support@portico.example.";
let counter = 0;
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

test("sends a message: required fields, sending state, success view, Back to Home", async ({ page }) => {
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
  await page.route("**/api/send-email", async (route) => {
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
  await page.getByRole("link", { name: "We received your message: SSL renewal" }).first().click();
  await expect(page.getByRole("heading", { name: "We received your message: SSL renewal" })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  const frame = page.frameLocator('iframe[title="HTML version"]');
  await expect(frame.getByRole("heading", { name: "Thank you, Grace Hopper!" })).toBeVisible();
  await expect(frame.getByRole("link", { name: "Chat on WhatsApp" })).toHaveAttribute(
    "href",
    "https://wa.me/15550102030",
  );
});

test("a failed send keeps the form filled and shows the spec's error texts", async ({
  page,
  consoleWatch,
}) => {
  consoleWatch.allow(/status of (500|503)/);
  await page.goto("/#contact");
  await hydratedContactForm(page);
  const email = `grace.${unique()}@example.com`;
  const form = await fillContact(page, email);
  const alert = page.locator("#contact").getByRole("alert");

  await page.route("**/api/send-email", (route) => route.fulfill({ status: 500, body: "" }));
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(alert).toHaveText(`There was an error sending your message. Server error: 500${TAIL}`);
  await expect(form.getByLabel("Email Address")).toHaveValue(email);
  await expect(form.getByLabel("Message")).toHaveValue("Our certificate expires next week.");
  await expect(form.getByRole("button", { name: "Send Message" })).toBeEnabled();

  await page.unroute("**/api/send-email");
  await page.route("**/api/send-email", (route) =>
    route.fulfill({ status: 503, json: { error: "Invalid login: 535 Authentication credentials invalid" } }),
  );
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(alert).toHaveText(
    `There was an error sending your message. Email service is temporarily unavailable.${TAIL}`,
  );

  await page.unroute("**/api/send-email");
  await page.route("**/api/send-email", (route) =>
    route.fulfill({ status: 503, json: { error: "Upstream timeout" } }),
  );
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(alert).toHaveText(`There was an error sending your message. Request timed out.${TAIL}`);

  // An address the shared zod schema refuses is caught before sending, on the field itself.
  await page.unroute("**/api/send-email");
  await form.getByLabel("Email Address").fill("grace@localhost");
  await form.getByRole("button", { name: "Send Message" }).click();
  await expect(alert).toHaveText("Please enter a valid email address.");
  await expect(form.getByLabel("Email Address")).toHaveAttribute("aria-invalid", "true");
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
  await blog.getByLabel("Email address").press("Enter");
  await expect(status).toHaveText(`${email} is already subscribed. Thank you!`);
});
