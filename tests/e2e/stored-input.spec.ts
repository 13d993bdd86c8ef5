/**
 * Stored input never runs as script (issue 15, item 3): markup and script payloads are stored through
 * the contact form, the registration name, the profile (name, company), an admin's order note and an
 * admin's reply, then every page that shows them is loaded in Chromium: the portal, the back office,
 * `/dev/mail` and the emails' HTML (in its sandboxed frame). Each payload would set a flag, open a
 * dialog or leave an element with an `xss` id if it were parsed as markup; none may, and the payload's
 * text must be on the page as text. A CSP violation (an injected script the policy stopped) is a console
 * error, which fails the test too (fixtures.ts).
 */
import type { APIRequestContext, Page } from "@playwright/test";
import { FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { adminFixtures } from "./admin-seed";
import { expect, test } from "./fixtures";

/** At most 100 characters (the name fields' limit); each part would run or leave a marked element. */
const payload = (tag: string) =>
  `<b id=xss${tag}>"'</b><img src=x onerror=alert(1)><script>window.__xss=1</script>${tag}`;
const ESCAPED = (tag: string) => `&lt;b id=xss${tag}&gt;`;

const unique = () => `${Date.now()}.${Math.floor(Math.random() * 1e6)}`;

async function post(request: APIRequestContext, path: string, form: Record<string, string>, status = 200) {
  const res = await request.post(path, { form, maxRedirects: 0 });
  expect(res.status(), `POST ${path}: ${(await res.text()).slice(0, 300)}`).toBe(status);
  return res;
}

/** Loads a page and checks that nothing injected ran or became markup, in the page and its frames. */
async function expectInert(page: Page, path: string, dialogs: string[], shows: string[] = []) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  await page.waitForLoadState("load");
  for (const frame of page.frames()) {
    const found = await frame.evaluate(() => ({
      flag: (window as unknown as { __xss?: unknown }).__xss ?? null,
      marked: document.querySelectorAll('[id^="xss"]').length,
      images: document.querySelectorAll('img[src="x"]').length,
      // The page's own nonced scripts carry the payload as escaped data (the loader data); a script
      // element the payload made would have no nonce.
      scripts: [...document.scripts].filter((s) => !s.nonce && s.textContent?.includes("__xss")).length,
    }));
    expect(found, `${path} (frame ${frame.url().slice(0, 60)})`).toEqual({
      flag: null,
      marked: 0,
      images: 0,
      scripts: 0,
    });
  }
  const html = (await Promise.all(page.frames().map((f) => f.content()))).join("\n");
  for (const tag of shows) expect(html, `${path} shows payload ${tag} as text`).toContain(ESCAPED(tag));
  expect(dialogs, `dialogs opened on ${path}`).toEqual([]);
}

test("stored markup and scripts are shown as text on the portal, the back office, /dev/mail and in emails", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const id = unique();
  const visitorEmail = `xss.visitor.${id}@example.com`;
  const clientEmail = `xss.client.${id}@example.com`;

  // A visitor's contact message: name, subject and message (the message with CRLF and a comma list).
  await post(page.request, "/?index", {
    name: payload("c1"),
    email: visitorEmail,
    subject: payload("c2"),
    message: `${payload("c3")}\r\nBcc: victim@example.com, boss@example.com`,
  });

  // A client registers with a payload for a name, then sets another in the profile with a company.
  await post(
    page.request,
    "/client/register",
    {
      name: payload("r1"),
      email: clientEmail,
      password: FIXTURE_PASSWORD,
      confirmPassword: FIXTURE_PASSWORD,
    },
    302,
  );
  expect(
    (await page.request.post("/api/test-hooks/verify-user", { data: { email: clientEmail } })).status(),
  ).toBe(200);
  await post(page.request, "/client/login", { email: clientEmail, password: FIXTURE_PASSWORD }, 302);
  await expectInert(page, "/client/dashboard", dialogs, ["r1"]);
  await post(page.request, "/client/profile", {
    intent: "profile",
    name: payload("p1"),
    phone: "",
    company: payload("p2"),
  });
  const made = await page.request.post("/api/test-hooks/orders", {
    data: { email: clientEmail, count: 1, status: "paid", announce: true },
  });
  expect(made.status()).toBe(200);
  const { orders } = (await made.json()) as { orders: Array<{ orderId: string; invoiceId: string }> };
  const order = orders[0]!;

  // The owner writes a note on the order and replies to the visitor, with payloads of their own.
  await page.context().clearCookies();
  await post(
    page.request,
    "/client/login",
    { email: adminFixtures().adminEmail, password: FIXTURE_PASSWORD },
    302,
  );
  await post(page.request, `/admin/orders/${order.orderId}`, { to: "in_progress", note: payload("o1") });
  await page.goto("/admin/messages");
  const messageHref = await page
    .getByRole("row")
    .filter({ hasText: visitorEmail })
    .getByRole("link")
    .first()
    .getAttribute("href");
  expect(messageHref).toMatch(/^\/admin\/messages\/[0-9a-f-]{36}$/);
  await post(page.request, messageHref!, { intent: "reply", subject: payload("m1"), body: payload("m2") });
  await page.goto(`/admin/clients?q=${encodeURIComponent(clientEmail)}`);
  const clientHref = await page
    .getByRole("row")
    .filter({ hasText: clientEmail })
    .getByRole("link")
    .first()
    .getAttribute("href");
  expect(clientHref).toMatch(/^\/admin\/clients\//);

  // The back office shows all of it as text.
  await expectInert(page, "/admin/dashboard", dialogs);
  await expectInert(page, "/admin/messages", dialogs, ["c2"]);
  await expectInert(page, messageHref!, dialogs, ["c1", "c2", "c3"]);
  // Lists filtered to this client: other browser tests add clients and orders at the same time.
  await expectInert(page, `/admin/clients?q=${encodeURIComponent(clientEmail)}`, dialogs, ["p1"]);
  await expectInert(page, clientHref!, dialogs, ["p1", "p2"]);
  await expectInert(page, `/admin/orders/${order.orderId}`, dialogs, ["p1", "o1"]);
  await expectInert(page, `/admin/orders?q=${encodeURIComponent(clientEmail)}`, dialogs, ["p1"]);
  await expectInert(page, `/admin/invoices/${order.invoiceId}`, dialogs, ["p1"]);
  await expectInert(page, "/admin/audit", dialogs, ["o1"]);

  // Every captured email to these addresses (confirmation, notification, verification, order update,
  // reply), in the inbox list and in its own page with the HTML in a sandboxed frame.
  await expectInert(page, "/dev/mail", dialogs, ["c2"]);
  const mailLinks = page
    .getByRole("row")
    .filter({
      hasText: new RegExp(`${visitorEmail.replace(/\./g, "\\.")}|${clientEmail.replace(/\./g, "\\.")}|xssc2`),
    })
    .getByRole("link");
  const hrefs = [...new Set(await mailLinks.evaluateAll((as) => as.map((a) => a.getAttribute("href"))))];
  expect(hrefs.length).toBeGreaterThanOrEqual(5);
  for (const href of hrefs) await expectInert(page, href!, dialogs);

  // The client's portal.
  await page.context().clearCookies();
  await post(page.request, "/client/login", { email: clientEmail, password: FIXTURE_PASSWORD }, 302);
  await expectInert(page, "/client/dashboard", dialogs, ["p1"]);
  await expectInert(page, "/client/profile", dialogs);
  await expect(page.getByLabel("Company")).toHaveValue(payload("p2"));
  await expectInert(page, "/client/orders", dialogs);
  await expectInert(page, "/client/invoices", dialogs);
  await expectInert(page, `/invoice/${order.invoiceId}`, dialogs, ["p1", "p2"]);
});
