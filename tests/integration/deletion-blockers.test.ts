/**
 * Issue 37, item 11 (ADR 0520): the profile's Privacy tab names what refuses "Delete my account" before
 * the form (an unpaid invoice by its number, with Pay; never a contradictory line about a completed
 * order), the refusal names the same, and a wrong password is said once.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders } from "~/db/schema";
import { DELETION_MESSAGES } from "~/features/privacy/account-deletion";
import { accountsOn } from "../support/accounts";
import { createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

/** The page's words, without tags nor the hydration data. */
const words = (html: string) =>
  text(html.replace(/<script\b[\s\S]*?<\/script>/g, " ").replace(/<[^>]*>/g, " "))
    .replace(/\s+/g, " ")
    .trim();

describe.each(testDatabases)("deletion blockers on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.104.${n}`,
  );
  const someone = (name: string) => ({ email: `del.${randomUUID().slice(0, 8)}@example.com`, name });

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("shows the unpaid invoice of a completed order before the form, with Pay, and refuses naming it", async () => {
    const { id, session } = await signedIn(someone("Uma Unpaid"));
    // A completed order whose invoice is still unpaid (a quote's balance, say).
    const order = await createOrder(db(), id, { status: "pending" });
    await db()
      .update(orders)
      .set({ status: "completed", completedAt: new Date() })
      .where(eq(orders.id, order.orderId));

    const html = await (await session.get("/client/profile?tab=privacy")).text();
    const shown = words(html);
    expect(shown).toContain("Your account cannot be deleted yet:");
    expect(shown).toContain(`Unpaid invoice ${order.invoiceNumber}`);
    expect(html).toContain(`action="/client/invoices/${order.invoiceId}/pay"`);
    expect(shown).toMatch(new RegExp(`Pay invoice ${order.invoiceNumber}`));
    // Named before the form; no form to fill in for nothing, no line about the completed order.
    expect(html).not.toContain('value="deleteAccount"');
    expect(shown).not.toMatch(/completed,/);

    const refused = await session.post("/client/profile", {
      intent: "deleteAccount",
      password: FIXTURE_PASSWORD,
      confirm: "DELETE",
    });
    expect(refused.status).toBe(409);
    expect(words(await refused.text())).toContain(
      `Your account cannot be deleted yet: unpaid invoice ${order.invoiceNumber}`,
    );
  });

  it("says a wrong password once", async () => {
    const { session } = await signedIn(someone("Will Wrongpass"));
    const html = await (await session.get("/client/profile?tab=privacy")).text();
    expect(html).toContain('value="deleteAccount"');
    const wrong = await session.post("/client/profile", {
      intent: "deleteAccount",
      password: "not-my-password",
      confirm: "DELETE",
    });
    expect(wrong.status).toBe(400);
    const shown = words(await wrong.text());
    expect(shown.split(DELETION_MESSAGES.passwordWrong).length - 1).toBe(1);
  });
});
