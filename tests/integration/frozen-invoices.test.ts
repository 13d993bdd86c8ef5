/**
 * Invoices stay as they were issued (docs/decisions/0504-invoices-frozen-when-issued.md), through the
 * real HTTP server: the profile's billing details are saved and checked; an invoice prints the buyer
 * and the seller of the moment it was issued, on its page and in its PDF, after the client edits the
 * profile and the owner restarts the site with another legal name and tax id; a new invoice prints the
 * new ones.
 */
import { sql } from "drizzle-orm";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { ACCOUNT_MESSAGES } from "~/features/accounts/messages";
import { Session, text } from "../support/browserless";
import { buyEmailMigration, PASSWORD, signedInClient } from "../support/clients";
import { sharedDatabase, type TestDatabase, testDatabases } from "../support/databases";
import { freePort, startTestServer, type TestServer } from "../support/server";

const AUTH_SECRET = "frozen-invoices-auth-secret-0123456789";
const IP = "198.51.100.77";

async function start(database: TestDatabase, business: Record<string, string>): Promise<TestServer> {
  const port = await freePort();
  return startTestServer(database, {
    TRUST_PROXY: "loopback",
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SANDBOX_WEBHOOK_SECRET: "sandbox-test-secret-0123456789",
    AUTH_SECRET,
    ...business,
  });
}

/** The invoice document of the page (the root's data carries the current business settings too). */
async function invoiceOnPage(session: Session, invoiceId: string): Promise<string> {
  const html = text(await (await session.get(`/client/invoice/${invoiceId}`)).text());
  const article = html.match(/<article id="invoice".*?<\/article>/s)?.[0];
  if (!article) throw new Error("no invoice on the page");
  return article;
}

async function pdfTextOf(session: Session, invoiceId: string): Promise<string> {
  const pdf = await session.get(`/invoice/${invoiceId}/pdf`);
  expect(pdf.status).toBe(200);
  const parser = new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) });
  const { text: pdfText } = await parser.getText();
  await parser.destroy();
  return pdfText;
}

describe.each(testDatabases)("invoices frozen when issued, on $name", (database) => {
  let server: TestServer | undefined;
  let storage: Awaited<ReturnType<typeof sharedDatabase>>;
  beforeAll(async () => {
    storage = await sharedDatabase(database);
  });
  afterAll(async () => {
    await server?.close();
    await storage?.drop();
  });

  it("prints the buyer and seller of the day it was issued, whatever changes later", async () => {
    server = await start(storage.shared, {
      BUSINESS_LEGAL_NAME: "Portico Old Legal LLC",
      BUSINESS_TAX_ID: "US-11-1111111",
    });
    const db = () => server!.portico.runtime.database.db;
    const { session, email, id } = await signedInClient(server.url, db());

    // The profile's billing details: checked (400 with each field's message), then saved.
    const refused = await session.post("/client/profile", {
      intent: "profile",
      name: "Ada Lovelace",
      phone: "",
      company: "Engines Ltd",
      address: "a".repeat(201),
      countryCode: "XX",
      taxId: "t".repeat(41),
    });
    expect(refused.status).toBe(400);
    const refusedPage = text(await refused.text());
    for (const message of [
      ACCOUNT_MESSAGES.addressTooLong,
      ACCOUNT_MESSAGES.countryInvalid,
      ACCOUNT_MESSAGES.taxIdTooLong,
    ]) {
      expect(refusedPage).toContain(message);
    }
    const saved = await session.post("/client/profile", {
      intent: "profile",
      name: "Ada Lovelace",
      phone: "+44 20 7946 0958",
      company: "Engines Ltd",
      address: "1 Analytical Way, London",
      countryCode: "GB",
      taxId: "GB123456789",
    });
    expect(saved.status).toBe(200);
    expect(text(await saved.text())).toContain("Profile updated successfully!");
    const profile = text(await (await session.get("/client/profile")).text());
    // The address is a textarea (ADR 0107): its value is its content.
    expect(profile).toMatch(/<textarea[^>]*name="address"[^>]*>1 Analytical Way, London<\/textarea>/);
    expect(profile).toContain('value="GB123456789"');

    await buyEmailMigration(session);
    const [first] = await queryRows<{ id: string }>(
      db(),
      sql`select id from invoices where client_id = ${id}`,
    );
    const firstId = first!.id;
    const issued = async () => {
      const page = await invoiceOnPage(session, firstId);
      const pdf = await pdfTextOf(session, firstId);
      for (const shown of [page, pdf]) {
        expect(shown).toContain("1 Analytical Way, London");
        expect(shown).toContain("United Kingdom");
        expect(shown).toContain("VAT/Tax ID: GB123456789");
        expect(shown).toContain("Portico Old Legal LLC");
        expect(shown).toContain("VAT/Tax ID: US-11-1111111");
        expect(shown).not.toContain("2 Difference Street");
        expect(shown).not.toContain("DE811907980");
        expect(shown).not.toContain("Portico New Legal GmbH");
      }
    };
    await issued();

    // The client moves and registers for VAT elsewhere; the owner changes the legal name and tax id.
    const moved = await session.post("/client/profile", {
      intent: "profile",
      name: "Ada Lovelace",
      phone: "+44 20 7946 0958",
      company: "Engines Ltd",
      address: "2 Difference Street, Berlin",
      countryCode: "DE",
      taxId: "DE811907980",
    });
    expect(moved.status).toBe(200);
    await server.close();
    server = undefined;
    server = await start(storage.shared, {
      BUSINESS_LEGAL_NAME: "Portico New Legal GmbH",
      BUSINESS_TAX_ID: "DE999999999",
    });
    const again = new Session(server.url, IP);
    expect((await again.post("/client/login", { email, password: PASSWORD })).status).toBe(302);
    const sessionNow = again;

    // The issued invoice reads as it did.
    const page = await invoiceOnPage(sessionNow, firstId);
    const pdf = await pdfTextOf(sessionNow, firstId);
    for (const shown of [page, pdf]) {
      expect(shown).toContain("1 Analytical Way, London");
      expect(shown).toContain("VAT/Tax ID: GB123456789");
      expect(shown).toContain("Portico Old Legal LLC");
      expect(shown).toContain("VAT/Tax ID: US-11-1111111");
      expect(shown).not.toContain("2 Difference Street");
      expect(shown).not.toContain("Portico New Legal GmbH");
      expect(shown).not.toContain("DE999999999");
    }

    // A new invoice prints the new details.
    await buyEmailMigration(sessionNow);
    const [second] = await queryRows<{ id: string }>(
      server.portico.runtime.database.db,
      sql`select id from invoices where client_id = ${id} and id <> ${firstId}`,
    );
    const newPage = await invoiceOnPage(sessionNow, second!.id);
    const newPdf = await pdfTextOf(sessionNow, second!.id);
    for (const shown of [newPage, newPdf]) {
      expect(shown).toContain("2 Difference Street, Berlin");
      expect(shown).toContain("Germany");
      expect(shown).toContain("VAT/Tax ID: DE811907980");
      expect(shown).toContain("Portico New Legal GmbH");
      expect(shown).toContain("VAT/Tax ID: DE999999999");
      expect(shown).not.toContain("1 Analytical Way");
      expect(shown).not.toContain("US-11-1111111");
    }

    // And the database refuses to rewrite the issued one.
    const error = await server.portico.runtime.database.db
      .execute(sql`update invoices set total_amount = 1 where id = ${firstId}`)
      .then(() => null)
      .catch((e: unknown) => e);
    expect(String((error as { cause?: unknown } | null)?.cause ?? error)).toMatch(/cannot be changed/);
  });
});
