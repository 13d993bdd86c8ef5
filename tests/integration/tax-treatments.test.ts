/**
 * Tax that follows the buyer, and e-invoices (issue 40), through the real HTTP handler on both databases,
 * for a German seller at 19 % with a fake VIES on loopback:
 * - a German consumer pays 19 % (S); a French business with a confirmed VAT number is reverse-charged
 *   (AE, 0 %, the Article 196 words, both VAT numbers); a French consumer pays 19 %; an American business
 *   pays no VAT (O, "Not subject to VAT", no VAT numbers); an Austrian business whose number VIES cannot
 *   confirm pays 19 % with the words saying why, and once VIES confirms it the owner sees the invoice
 *   under Needs attention; a client without a billing country is asked for it before buying;
 * - the purchase summary shows that treatment before paying, the invoice freezes it, and its credit note
 *   copies it;
 * - every invoice and the credit note download as CII, UBL and Factur-X for the client and the owner, and
 *   pass the official EN 16931 rules; the Factur-X PDF carries the CII download as factur-x.xml; a client
 *   reference makes the CII an XRechnung; nobody else's document downloads;
 * - an exempt German small business (§ 19 UStG) prints its reason on every invoice at 0 % (E), identified
 *   by its tax number, and its documents pass the rules too.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { clients } from "~/db/schema";
import { XRECHNUNG_ID } from "~/features/einvoice/model";
import { COUNTRY_NEEDED } from "~/features/tax/document-tax";
import { NOT_SUBJECT_NOTE, REVERSE_CHARGE_NOTE, unconfirmedNote } from "~/features/tax/treatment";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { checkEn16931 } from "../support/einvoice-rules";
import { checkFacturXPdf } from "../support/factur-x-pdf";
import { type FakeVies, startFakeVies } from "../support/fake-vies";
import { refundThroughForm } from "../support/refunds";
import { freePort, startTestServer, type TestServer } from "../support/server";

let vies: FakeVies;
beforeAll(async () => {
  vies = await startFakeVies();
  vies.numbers.set("FRXX123456789", "valid");
});
afterAll(async () => {
  await vies?.close();
});

interface Bought {
  id: string;
  session: Session;
  invoice: { id: string; invoice_number: string; tax: Record<string, unknown>; total_amount: string };
  summary: string;
  /** The sandbox payment session the checkout opened. */
  paySession: string;
}

describe.each(testDatabases)("tax treatments and e-invoices on $name", (database) => {
  let server: TestServer;
  let owner: Session;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.112.${n}`,
  );

  // The fake VIES is shared by both databases' runs: each has its own unconfirmed number.
  const unconfirmed = database.name === "pglite" ? "ATU99999999" : "ATU88888888";

  beforeAll(async () => {
    vies.numbers.set(unconfirmed, "unavailable");
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      BUSINESS_COUNTRY: "DE",
      BUSINESS_TAX_ID: "DE123456789",
      BUSINESS_REGISTRATION_ID: "HRB 12345",
      BUSINESS_LEGAL_NAME: "Portico IT Services GmbH",
      BUSINESS_ADDRESS: "Hauptstraße 1, 10115 Berlin",
      VAT_RATE_PERCENT: "19",
      VIES_URL: vies.url,
    });
    ({ session: owner } = await signedIn({
      email: `owner.tax.${database.name}@example.com`,
      name: "Owner",
      role: "admin",
    }));
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** A client with these billing details buys SSL setup (single, $10) and is sent to the payment page. */
  async function buy(
    name: string,
    billing: { countryCode: string; company?: string; taxId?: string },
  ): Promise<Bought> {
    const client = await signedInClient(server.url, db(), name);
    const saved = await client.session.post("/client/profile", {
      intent: "profile",
      name,
      phone: "",
      company: billing.company ?? "",
      countryCode: billing.countryCode,
      taxId: billing.taxId ?? "",
    });
    expect(saved.status).toBe(200);
    const page = await client.session.get("/client/purchase/ssl-setup?package=single");
    const html = await page.text();
    const bought = await client.session.post("/client/purchase/ssl-setup", {
      checkoutToken: checkoutTokenIn(html),
      package: "single",
      currency: "USD",
    });
    expect(location(bought)).toContain("/payments/sandbox/checkout");
    const paySession = new URL(location(bought), server.url).searchParams.get("session")!;
    const [invoice] = await queryRows<Bought["invoice"]>(
      db(),
      sql`select id, invoice_number, tax, total_amount::text from invoices where client_id = ${client.id}`,
    );
    return { id: client.id, session: client.session, invoice: invoice!, summary: text(html), paySession };
  }

  const download = async (session: Session, path: string) => {
    const res = await session.get(path);
    return { res, body: new Uint8Array(await res.arrayBuffer()) };
  };
  const utf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  /** Downloads the three formats as the client and as the owner; returns the XML by name for the rules. */
  async function eInvoices(b: Bought): Promise<Record<string, string>> {
    const client = `/client/invoices/${b.invoice.id}/e-invoice`;
    const cii = await download(b.session, `${client}/cii`);
    expect(cii.res.status).toBe(200);
    expect(cii.res.headers.get("content-disposition")).toContain(`${b.invoice.invoice_number}.cii.xml`);
    const ubl = await download(b.session, `${client}/ubl`);
    expect(ubl.res.status).toBe(200);
    const fx = await download(b.session, `${client}/factur-x`);
    expect(fx.res.headers.get("content-type")).toBe("application/pdf");
    const report = await checkFacturXPdf(fx.body, { xml: utf8(cii.body) });
    expect(report.problems).toEqual([]);
    // The owner downloads the same documents.
    const ownerCii = await download(owner, `/admin/invoices/${b.invoice.id}/e-invoice/cii`);
    expect(utf8(ownerCii.body)).toBe(utf8(cii.body));
    return {
      [`${b.invoice.invoice_number}-cii`]: utf8(cii.body),
      [`${b.invoice.invoice_number}-ubl`]: utf8(ubl.body),
    };
  }

  const documents: Record<string, string> = {};

  it("charges a buyer at home the seller's VAT, shown before paying and frozen on the invoice", async () => {
    const b = await buy("Dora Domestic", { countryCode: "DE" });
    expect(b.summary).toContain("VAT (19%)");
    expect(b.invoice.tax).toMatchObject({ category: "S", ratePercent: 19, sellerVatNumber: "DE123456789" });
    expect(b.invoice.total_amount).toBe("11.90");
    const page = text(await (await b.session.get(`/client/invoice/${b.invoice.id}`)).text());
    expect(page).toContain("VAT (19%)");
    Object.assign(documents, await eInvoices(b));
  });

  it("reverse-charges a business elsewhere in the EU whose VAT number VIES confirmed, naming both numbers", async () => {
    const b = await buy("Fran Business", { countryCode: "FR", company: "Acme SARL", taxId: "FRXX123456789" });
    expect(b.summary).toContain(REVERSE_CHARGE_NOTE);
    expect(b.summary).toContain("VAT (0%)");
    expect(b.invoice.tax).toMatchObject({
      category: "AE",
      ratePercent: 0,
      note: REVERSE_CHARGE_NOTE,
      sellerVatNumber: "DE123456789",
      buyerVatNumber: "FRXX123456789",
    });
    expect(b.invoice.total_amount).toBe("10.00");
    const page = text(await (await b.session.get(`/client/invoice/${b.invoice.id}`)).text());
    expect(page).toContain(REVERSE_CHARGE_NOTE);
    const docs = await eInvoices(b);
    const cii = docs[`${b.invoice.invoice_number}-cii`]!;
    expect(cii).toContain("FRXX123456789");
    expect(cii).toContain("DE123456789");
    expect(cii).toContain("<ram:CategoryCode>AE</ram:CategoryCode>");
    Object.assign(documents, docs);

    // Its credit note copies the treatment and downloads in every format too.
    const paid = await b.session.post("/payments/sandbox/checkout", { session: b.paySession, intent: "pay" });
    expect(paid.status).toBe(302);
    const refunded = await refundThroughForm(owner, b.invoice.id, {
      amount: "4.00",
      reason: "Part of the work was not needed",
    });
    expect(refunded.status).toBeLessThan(400);
    const [note] = await queryRows<{ id: string; credit_note_number: string; tax: Record<string, unknown> }>(
      db(),
      sql`select id, credit_note_number, tax from credit_notes where invoice_id = ${b.invoice.id}`,
    );
    expect(note!.tax).toEqual(b.invoice.tax);
    const ncii = await download(b.session, `/client/credit-notes/${note!.id}/e-invoice/cii`);
    expect(ncii.res.status).toBe(200);
    expect(utf8(ncii.body)).toContain("<ram:TypeCode>381</ram:TypeCode>");
    expect(utf8(ncii.body)).toContain(b.invoice.invoice_number);
    const nubl = await download(owner, `/admin/credit-notes/${note!.id}/e-invoice/ubl`);
    const nfx = await download(b.session, `/client/credit-notes/${note!.id}/e-invoice/factur-x`);
    expect((await checkFacturXPdf(nfx.body, { xml: utf8(ncii.body) })).problems).toEqual([]);
    documents[`${note!.credit_note_number}-cii`] = utf8(ncii.body);
    documents[`${note!.credit_note_number}-ubl`] = utf8(nubl.body);
  });

  it("charges a consumer elsewhere in the EU the seller's VAT", async () => {
    const b = await buy("Claude Consumer", { countryCode: "FR" });
    expect(b.invoice.tax).toMatchObject({ category: "S", ratePercent: 19, buyerVatNumber: null });
    expect(b.summary).toContain("VAT (19%)");
    Object.assign(documents, await eInvoices(b));
  });

  it("charges no VAT outside the EU and names no VAT number", async () => {
    const b = await buy("Uma Usa", { countryCode: "US", company: "Acme Inc", taxId: "12-3456789" });
    expect(b.summary).toContain(NOT_SUBJECT_NOTE);
    expect(b.invoice.tax).toMatchObject({
      category: "O",
      ratePercent: 0,
      sellerVatNumber: null,
      buyerVatNumber: null,
    });
    const docs = await eInvoices(b);
    const cii = docs[`${b.invoice.invoice_number}-cii`]!;
    expect(cii).not.toContain("DE123456789");
    expect(cii).toContain("HRB 12345");
    Object.assign(documents, docs);
  });

  it("charges VAT on a number VIES cannot confirm, says why, and shows the owner once VIES confirms it", async () => {
    const b = await buy("Otto Unconfirmed", {
      countryCode: "AT",
      company: "Otto GmbH",
      taxId: unconfirmed,
    });
    expect(b.summary).toContain(unconfirmedNote(unconfirmed));
    expect(b.invoice.tax).toMatchObject({ category: "S", ratePercent: 19, vatUnconfirmed: true });
    Object.assign(documents, await eInvoices(b));
    // VIES answers later: the next purchase page asks again and confirms the number.
    vies.numbers.set(unconfirmed, "valid");
    const page = text(await (await b.session.get("/client/purchase/ssl-setup?package=single")).text());
    expect(page).toContain(REVERSE_CHARGE_NOTE);
    const dashboard = text(await (await owner.get("/admin/dashboard")).text());
    expect(dashboard).toContain(
      `VAT number confirmed after invoicing: ${b.invoice.invoice_number}, Otto Unconfirmed`,
    );
  });

  it("makes the CII an XRechnung when the client gives a reference for their invoices", async () => {
    const b = await buy("Rita Reference", { countryCode: "DE" });
    await db().update(clients).set({ buyerReference: "04011000-12345-03" }).where(eq(clients.id, b.id));
    const page = await b.session.get("/client/purchase/ssl-setup?package=single");
    await b.session.post("/client/purchase/ssl-setup", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "single",
      currency: "USD",
    });
    const [second] = await queryRows<{ id: string; invoice_number: string }>(
      db(),
      sql`select id, invoice_number from invoices where client_id = ${b.id} and id <> ${b.invoice.id}`,
    );
    const cii = await download(b.session, `/client/invoices/${second!.id}/e-invoice/cii`);
    expect(cii.res.headers.get("content-disposition")).toContain(`${second!.invoice_number}.xrechnung.xml`);
    expect(utf8(cii.body)).toContain(XRECHNUNG_ID);
    expect(utf8(cii.body)).toContain("04011000-12345-03");
  });

  it("asks for the billing country before selling, and downloads nobody else's document", async () => {
    const client = await signedInClient(server.url, db(), "Nora Nowhere");
    const page = await client.session.get("/client/purchase/ssl-setup?package=single");
    const html = await page.text();
    expect(text(html)).toContain(COUNTRY_NEEDED);
    const refused = await client.session.post("/client/purchase/ssl-setup", {
      checkoutToken: checkoutTokenIn(html),
      package: "single",
      currency: "USD",
    });
    expect(refused.status).toBe(409);
    expect(text(await refused.text())).toContain(COUNTRY_NEEDED);
    const [someone] = await queryRows<{ id: string }>(db(), sql`select id from invoices limit 1`);
    expect((await client.session.get(`/client/invoices/${someone!.id}/e-invoice/cii`)).status).toBe(404);
    expect((await client.session.get(`/admin/invoices/${someone!.id}/e-invoice/cii`)).status).toBe(404);
    expect((await owner.get(`/admin/invoices/${someone!.id}/e-invoice/pdf`)).status).toBe(404);
  });

  it("writes documents that pass the official EN 16931 rules", { timeout: 180_000 }, async () => {
    expect(Object.keys(documents).length).toBeGreaterThanOrEqual(12);
    const verdicts = await checkEn16931(documents);
    for (const [name, verdict] of Object.entries(verdicts)) {
      expect(verdict.ok, `${name}:\n${verdict.report}`).toBe(true);
    }
  });
});

describe.each(testDatabases)("an exempt seller's invoices on $name", (database) => {
  let server: TestServer;
  const { db } = accountsOn(
    () => server,
    (n) => `198.51.113.${n}`,
  );
  const REASON = "Kein Ausweis von Umsatzsteuer, da Kleinunternehmer gemäß § 19 UStG";

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      BUSINESS_COUNTRY: "DE",
      BUSINESS_TAX_NUMBER: "12/345/67890",
      BUSINESS_REGISTRATION_ID: "HRA 4711",
      VAT_EXEMPT_REASON: REASON,
      VIES_URL: vies.url,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it("prints the exemption on every invoice, at 0 %, with the tax number, and passes the rules", {
    timeout: 120_000,
  }, async () => {
    const client = await signedInClient(server.url, db(), "Erik Exempt");
    expect(
      (
        await client.session.post("/client/profile", {
          intent: "profile",
          name: "Erik Exempt",
          phone: "",
          company: "",
          countryCode: "FR",
          taxId: "",
        })
      ).status,
    ).toBe(200);
    const page = await client.session.get("/client/purchase/ssl-setup?package=single");
    const html = await page.text();
    expect(text(html)).toContain(REASON);
    await client.session.post("/client/purchase/ssl-setup", {
      checkoutToken: checkoutTokenIn(html),
      package: "single",
      currency: "EUR",
    });
    const [invoice] = await queryRows<{ id: string; invoice_number: string; tax: Record<string, unknown> }>(
      db(),
      sql`select id, invoice_number, tax from invoices where client_id = ${client.id}`,
    );
    expect(invoice!.tax).toMatchObject({ category: "E", ratePercent: 0, note: REASON });
    const cii = new TextDecoder().decode(
      new Uint8Array(
        await (await client.session.get(`/client/invoices/${invoice!.id}/e-invoice/cii`)).arrayBuffer(),
      ),
    );
    const ubl = new TextDecoder().decode(
      new Uint8Array(
        await (await client.session.get(`/client/invoices/${invoice!.id}/e-invoice/ubl`)).arrayBuffer(),
      ),
    );
    expect(cii).toContain("12/345/67890");
    expect(cii).toContain("<ram:CategoryCode>E</ram:CategoryCode>");
    const verdicts = await checkEn16931({ exemptCii: cii, exemptUbl: ubl });
    for (const [name, verdict] of Object.entries(verdicts))
      expect(verdict.ok, `${name}:\n${verdict.report}`).toBe(true);
  });
});
