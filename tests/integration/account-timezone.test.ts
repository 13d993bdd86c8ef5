/**
 * The profile's timezone and language saved with the account (issue 25, ADR 0521), through the real HTTP
 * server on each database: saved by a plain form post (no JavaScript) and refused outside the list; the
 * portal's dates and times written in the client's zone (an order placed at 2026-03-01T03:30Z is Feb 28
 * for a client in Los Angeles or New York, 19:30 PST against 22:30 EST); a security alert's time too;
 * the invoice (a tax document) keeps the seller's calendar day.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { createOrder, FIXTURE_PASSWORD } from "../support/admin-fixtures";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const PLACED = "2026-03-01T03:30:00Z";

/** The option chosen in a select of the page. */
function selected(html: string, name: string): string | undefined {
  const select = html.match(new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`))?.[1] ?? "";
  return select.match(/<option[^>]*value="([^"]+)"[^>]*selected=""/)?.[1];
}

describe.each(testDatabases)("the account's timezone and language on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.100.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A signed-in client with one order placed at PLACED, and the zone saved unless told not to. */
  async function clientIn(email: string, timeZone: string | null) {
    const who = await signedIn({ email, name: email.split("@")[0]! });
    const order = await createOrder(db(), who.id);
    await db().execute(
      sql`update orders set created_at = ${PLACED}::timestamptz where id = ${order.orderId}`,
    );
    await db().execute(
      sql`update invoices set created_at = ${PLACED}::timestamptz where id = ${order.invoiceId}`,
    );
    if (timeZone) {
      const res = await who.session.post("/client/profile", {
        intent: "profile",
        name: "Client",
        phone: "",
        company: "",
        timeZone,
        language: "es",
      });
      expect(res.status).toBe(200);
      expect(text(await res.text())).toContain("Profile updated successfully!");
    }
    const page = async (path: string) => {
      const res = await who.session.get(path);
      expect(res.status, path).toBe(200);
      return res.text();
    };
    return { ...who, order, page };
  }

  it("saves both from a plain form post, shows them again, and refuses a value not offered", async () => {
    const lena = await clientIn("lena@example.com", null);
    let html = await lena.page("/client/profile");
    // Never saved: the spec's defaults.
    expect(selected(html, "timeZone")).toBe("America/New_York");
    expect(selected(html, "language")).toBe("en");

    const saved = await lena.session.post("/client/profile", {
      intent: "profile",
      name: "Lena",
      phone: "",
      company: "",
      timeZone: "America/Denver",
      language: "fr",
    });
    expect(saved.status).toBe(200);
    html = await lena.page("/client/profile");
    expect(selected(html, "timeZone")).toBe("America/Denver");
    expect(selected(html, "language")).toBe("fr");
    const stored = () =>
      rows<{ time_zone: string; language: string }>(
        sql`select time_zone, language from clients where id = ${lena.id}`,
      );
    expect(await stored()).toEqual([{ time_zone: "America/Denver", language: "fr" }]);

    const refused: Array<Record<string, string>> = [
      { timeZone: "Europe/Narnia" },
      { timeZone: "<script>" },
      { timeZone: "asia/kathmandu" },
      { language: "de" },
      { timeZone: "" },
    ];
    for (const bad of refused) {
      const res = await lena.session.post("/client/profile", {
        intent: "profile",
        name: "Lena",
        phone: "",
        company: "",
        ...bad,
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      const page = text(await res.text());
      expect(page).toMatch(/Choose one of the listed (timezones|languages)/);
    }
    // Every IANA zone is offered, by region, and saved (issue 37, item 12).
    html = await lena.page("/client/profile");
    expect(html).toMatch(/<optgroup label="Asia">[\s\S]*<option value="Asia\/Kathmandu">Kathmandu<\/option>/);
    expect(html).toContain('<option value="Europe/Paris">Paris</option>');
    expect(html).toContain(
      '<option value="America/Argentina/Buenos_Aires">Argentina / Buenos Aires</option>',
    );
    for (const zone of ["Asia/Kathmandu", "Europe/Paris"]) {
      const ok = await lena.session.post("/client/profile", {
        intent: "profile",
        name: "Lena",
        phone: "",
        company: "",
        timeZone: zone,
        language: "fr",
      });
      expect(ok.status, zone).toBe(200);
      expect(await stored()).toEqual([{ time_zone: zone, language: "fr" }]);
      expect(selected(await lena.page("/client/profile"), "timeZone")).toBe(zone);
    }
    await lena.session.post("/client/profile", {
      intent: "profile",
      name: "Lena",
      phone: "",
      company: "",
      timeZone: "America/Denver",
      language: "fr",
    });
    // A form without them (an older page) leaves them as they were.
    const older = await lena.session.post("/client/profile", {
      intent: "profile",
      name: "Lena",
      phone: "",
      company: "",
    });
    expect(older.status).toBe(200);
    expect(await stored()).toEqual([{ time_zone: "America/Denver", language: "fr" }]);
  });

  it("writes the portal's dates in the client's zone: Feb 28 in Los Angeles and New York, Mar 1 nowhere", async () => {
    const la = await clientIn("la@example.com", "America/Los_Angeles");
    const ny = await clientIn("ny@example.com", "America/New_York");
    const unsaved = await clientIn("default@example.com", null);
    for (const who of [la, ny, unsaved]) {
      for (const path of ["/client/dashboard", "/client/orders", `/client/orders/${who.order.orderId}`]) {
        const html = text(await who.page(path));
        expect(html, path).toContain("Feb 28, 2026");
        expect(html, path).not.toContain("Mar 1, 2026");
      }
    }
    // Where a time is shown (the order's timeline): the zone's hour and abbreviation.
    const laOrder = await la.page(`/client/orders/${la.order.orderId}`);
    expect(laOrder).toMatch(/<time dateTime="2026-03-01T03:30:00.000Z">Feb 28, 2026, 19:30 PST<\/time>/);
    const nyOrder = await ny.page(`/client/orders/${ny.order.orderId}`);
    expect(nyOrder).toMatch(/<time dateTime="2026-03-01T03:30:00.000Z">Feb 28, 2026, 22:30 EST<\/time>/);
    // Never saved: New York, the spec's default.
    expect(await unsaved.page(`/client/orders/${unsaved.order.orderId}`)).toContain(
      "Feb 28, 2026, 22:30 EST",
    );

    // The invoice is a tax document: its issue date is the seller's calendar day (UTC), the same for
    // every client, on its page as on its PDF.
    const invoice = text(await la.page(`/client/invoice/${la.order.invoiceId}`));
    expect(invoice).toContain("March 1, 2026");
    expect(invoice).not.toContain("February 28, 2026");

    // The back office keeps the owner's (UTC) times.
    const admin = (await signedIn({ email: "owner@example.com", name: "Owner", role: "admin" })).session;
    const adminOrder = text(await (await admin.get(`/admin/orders/${la.order.orderId}`)).text());
    expect(adminOrder).toContain("Mar 1, 2026, 03:30 UTC");
  });

  it("writes a security alert's time in the client's zone", async () => {
    const la = await clientIn("alert-la@example.com", "America/Los_Angeles");
    const res = await la.session.post("/client/profile", {
      intent: "password",
      currentPassword: FIXTURE_PASSWORD,
      newPassword: "An0ther!Passw0rd-here",
      confirmPassword: "An0ther!Passw0rd-here",
    });
    expect(res.status).toBe(200);
    const [mail] = await rows<{ text: string; html: string }>(
      sql`select text, html from outbox_emails where to_address = 'alert-la@example.com' and kind = 'security-alert'`,
    );
    // Now, in Los Angeles: Pacific standard or daylight time, never UTC.
    expect(mail?.text).toMatch(/When: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d P[SD]T\./);
    expect(mail?.html).toMatch(/When: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d P[SD]T\./);
  });
});
