/**
 * The back office's invoice page keeps the invoice as it was issued (ADR 0504), through the real HTTP
 * server: /admin/invoices/:id shows an "As issued" card with the buyer (the client's billing details)
 * and the seller (the business settings, BUSINESS_TAX_ID included) copied when the invoice was made;
 * after the client edits the profile and the owner restarts the site with other business settings, the
 * card reads the same, while the page's link to the client shows the client as they are now.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { type Session, text } from "../support/browserless";
import { buyEmailMigration, signedInClient } from "../support/clients";
import { sharedDatabase, type TestDatabase, testDatabases } from "../support/databases";
import { startTestServer, type TestServer } from "../support/server";

const ISSUED_BUSINESS = {
  BUSINESS_NAME: "Portico IT Services",
  BUSINESS_LEGAL_NAME: "Portico Old Legal LLC",
  BUSINESS_ADDRESS: "1 Old Road, Boston, MA 02101, USA",
  BUSINESS_EMAIL: "billing@old.example.com",
  BUSINESS_PHONE: "+1 (555) 010-1111",
  BUSINESS_TAX_ID: "US-11-1111111",
};
const LATER_BUSINESS = {
  BUSINESS_NAME: "Portico Renamed",
  BUSINESS_LEGAL_NAME: "Portico New Legal GmbH",
  BUSINESS_ADDRESS: "9 Neue Strasse, 10115 Berlin, Germany",
  BUSINESS_EMAIL: "billing@new.example.com",
  BUSINESS_PHONE: "+49 30 1234567",
  BUSINESS_TAX_ID: "DE999999999",
};
const ISSUED_PROFILE = {
  name: "Ada Lovelace",
  phone: "+44 20 7946 0958",
  company: "Engines Ltd",
  address: "1 Analytical Way, London",
  country: "United Kingdom",
  taxId: "GB123456789",
};
const LATER_PROFILE = {
  name: "Ada King",
  phone: "+49 30 7654321",
  company: "Difference Engines GmbH",
  address: "2 Difference Street, Berlin",
  country: "Germany",
  taxId: "DE811907980",
};

/** The lines of one party of the "As issued" card (its `data-testid`), as a reader sees them. */
function partyLines(html: string, testId: "issued-bill-to" | "issued-seller"): string[] {
  const card = html.slice(html.indexOf(">As issued<"));
  const party = card.match(new RegExp(`data-testid="${testId}"[^>]*>((?:<span[^>]*>[^<]*</span>)*)</span>`));
  if (!party) throw new Error(`no ${testId} in the "As issued" card`);
  return [...party[1]!.matchAll(/<span[^>]*>([^<]*)<\/span>/g)].map((m) => text(m[1]!));
}

describe.each(testDatabases)("the back office's invoice as issued, on $name", (database) => {
  let server: TestServer | undefined;
  let storage: Awaited<ReturnType<typeof sharedDatabase>>;
  const accounts = accountsOn(
    () => server!,
    (n) => `198.51.100.${n + 180}`,
  );

  async function start(shared: TestDatabase, business: Record<string, string>) {
    server = await startTestServer(shared, { TRUST_PROXY: "loopback", ...business });
    return server;
  }

  beforeAll(async () => {
    storage = await sharedDatabase(database);
  });
  afterAll(async () => {
    await server?.close();
    await storage?.drop();
  });

  it("shows the buyer and seller copied at issue, whatever the profile and settings say later", async () => {
    const first = await start(storage.shared, ISSUED_BUSINESS);
    const adminEmail = `owner.${database.name}@example.com`;
    const admin = await accounts.signedIn({ email: adminEmail, name: "Owner", role: "admin" });
    const client = await signedInClient(first.url, accounts.db());
    const saved = await client.session.post("/client/profile", { intent: "profile", ...ISSUED_PROFILE });
    expect(saved.status).toBe(200);
    await buyEmailMigration(client.session);
    const [invoice] = await queryRows<{ id: string }>(
      accounts.db(),
      sql`select id from invoices where client_id = ${client.id}`,
    );
    const invoicePath = `/admin/invoices/${invoice!.id}`;

    const issuedBuyer = [
      "Ada Lovelace",
      "Engines Ltd",
      "1 Analytical Way, London",
      "United Kingdom",
      client.email,
      "+44 20 7946 0958",
      "VAT/Tax ID: GB123456789",
    ];
    const issuedSeller = [
      "Portico IT Services",
      "Portico Old Legal LLC",
      "1 Old Road, Boston, MA 02101, USA",
      "billing@old.example.com · +1 (555) 010-1111",
      "VAT/Tax ID: US-11-1111111",
    ];
    const adminPage = async (session: Session) => {
      const res = await session.get(invoicePath);
      expect(res.status).toBe(200);
      return res.text();
    };

    const before = await adminPage(admin.session);
    expect(text(before)).toContain("As issued");
    expect(partyLines(before, "issued-bill-to")).toEqual(issuedBuyer);
    expect(partyLines(before, "issued-seller")).toEqual(issuedSeller);

    // The client moves, renames and registers for VAT elsewhere; the owner restarts the site with
    // another name, legal name, address, email, phone and tax id.
    const moved = await client.session.post("/client/profile", { intent: "profile", ...LATER_PROFILE });
    expect(moved.status).toBe(200);
    await first.close();
    server = undefined;
    await start(storage.shared, LATER_BUSINESS);
    const { s: adminAgain, res } = await accounts.signIn(adminEmail);
    expect(res.status).toBe(302);

    const after = await adminPage(adminAgain);
    expect(partyLines(after, "issued-bill-to")).toEqual(issuedBuyer);
    expect(partyLines(after, "issued-seller")).toEqual(issuedSeller);
    // The link to the client is the client as they are now; only the card keeps the invoice's copy.
    expect(text(after)).toContain(`Ada King (${client.email})`);
    // The site does run with the later settings now.
    expect(server!.portico.runtime.config.business).toMatchObject({
      legalName: "Portico New Legal GmbH",
      taxId: "DE999999999",
    });
  });
});
