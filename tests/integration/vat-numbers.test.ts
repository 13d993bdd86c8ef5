/**
 * A client's VAT number confirmed with the EU's VIES when they save their billing details (issue 40,
 * item 3), through the real HTTP handler on both databases, against a fake VIES on loopback, for a
 * German seller at 19 %: a French business's number confirmed with its proof (the seller's number sent
 * as requester), one VIES refuses refused in words and nothing saved, one VIES cannot answer for kept
 * "not yet confirmed" and said so, a malformed one refused before VIES is asked, a domestic one not
 * asked; the owner's client page shows the answer and its proof.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clients } from "~/db/schema";
import { accountsOn } from "../support/accounts";
import { text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { type FakeVies, startFakeVies } from "../support/fake-vies";
import { startTestServer, type TestServer } from "../support/server";

let vies: FakeVies;
beforeAll(async () => {
  vies = await startFakeVies();
  vies.numbers.set("FRXX123456789", "valid");
  vies.numbers.set("ATU99999999", "unavailable");
});
afterAll(async () => {
  await vies?.close();
});

describe.each(testDatabases)("VAT numbers in the billing details on $name", (database) => {
  let server: TestServer;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.111.${n}`,
  );
  const someone = (name: string) => ({
    email: `vat.${Math.random().toString(36).slice(2, 10)}@example.com`,
    name,
  });
  const profile = (countryCode: string, taxId: string) => ({
    intent: "profile",
    name: "Vat Client",
    phone: "",
    company: "Acme SARL",
    countryCode,
    taxId,
  });
  const clientRow = async (id: string) => (await db().select().from(clients).where(eq(clients.id, id)))[0]!;

  beforeAll(async () => {
    server = await startTestServer(database, {
      BUSINESS_COUNTRY: "DE",
      BUSINESS_TAX_ID: "DE123456789",
      VAT_RATE_PERCENT: "19",
      VIES_URL: vies.url,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("confirms another member state's number with VIES, keeps the proof, and does not ask twice", async () => {
    const { id, session } = await signedIn(someone("Fran Business"));
    const asked = vies.requests.length;
    const saved = await session.post("/client/profile", profile("FR", "fr xx 123.456.789"));
    expect(saved.status).toBe(200);
    expect(vies.requests.slice(asked)).toEqual([
      {
        countryCode: "FR",
        vatNumber: "XX123456789",
        requesterMemberStateCode: "DE",
        requesterNumber: "123456789",
      },
    ]);
    const row = await clientRow(id);
    expect(row).toMatchObject({
      taxId: "FRXX123456789",
      vatStatus: "valid",
      vatCheckedNumber: "FRXX123456789",
    });
    expect(row.vatRequestId).toMatch(/^WAPIAAAAW\d+$/);
    expect(row.vatCheckedAt).toBeInstanceOf(Date);
    const page = text(await (await session.get("/client/profile")).text());
    expect(page).toMatch(
      /Confirmed by the EU's VIES service on .*: invoices to your business are reverse-charged\./,
    );

    // Saving again with the same number does not ask VIES again.
    expect((await session.post("/client/profile", profile("FR", "FRXX123456789"))).status).toBe(200);
    expect(vies.requests.length).toBe(asked + 1);

    // The owner sees the answer and its proof.
    const owner = await signedIn({ ...someone("Vat Owner"), role: "admin" });
    const clientPage = text(await (await owner.session.get(`/admin/clients/${id}`)).text());
    expect(clientPage).toContain(`FRXX123456789 (confirmed by VIES on`);
    expect(clientPage).toContain(`consultation ${row.vatRequestId}`);
  });

  it("refuses a number VIES does not know, and a malformed one before asking, saving nothing", async () => {
    const { id, session } = await signedIn(someone("Iris Invalid"));
    const refused = await session.post("/client/profile", profile("ES", "ESA1234567B"));
    expect(refused.status).toBe(400);
    expect(text(await refused.text())).toContain(
      "The EU's VIES service does not know ESA1234567B as a registered VAT number: check it, or leave the field empty to be invoiced as a consumer.",
    );
    expect(await clientRow(id)).toMatchObject({ taxId: null, vatStatus: null, company: null });
    const asked = vies.requests.length;
    const malformed = await session.post("/client/profile", profile("NL", "NL123"));
    expect(malformed.status).toBe(400);
    expect(text(await malformed.text())).toContain(
      "“NL123” is not a NL VAT number (they look like NL123456789B01).",
    );
    expect(vies.requests.length).toBe(asked);
  });

  it("keeps a number VIES cannot answer for as not yet confirmed, and says so", async () => {
    const { id, session } = await signedIn(someone("Otto Unconfirmed"));
    const saved = await session.post("/client/profile", profile("AT", "ATU99999999"));
    expect(saved.status).toBe(200);
    expect(text(await saved.text())).toContain(
      "Saved. The EU's VIES service could not confirm ATU99999999 just now; we ask again before your next invoice. Until it is confirmed, VAT is charged as for a consumer.",
    );
    expect(await clientRow(id)).toMatchObject({
      taxId: "ATU99999999",
      vatStatus: "unconfirmed",
      vatRequestId: null,
    });
  });

  it("does not ask about a domestic number nor one outside the EU, and clears an old answer", async () => {
    const { id, session } = await signedIn(someone("Dora Domestic"));
    const asked = vies.requests.length;
    expect((await session.post("/client/profile", profile("DE", "DE 987 654 321"))).status).toBe(200);
    expect((await session.post("/client/profile", profile("US", "12-3456789"))).status).toBe(200);
    expect(vies.requests.length).toBe(asked);
    expect(await clientRow(id)).toMatchObject({
      taxId: "12-3456789",
      vatStatus: null,
      vatCheckedNumber: null,
    });
  });
});
