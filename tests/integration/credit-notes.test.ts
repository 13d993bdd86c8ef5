/**
 * Credit notes and refunded invoices on the pages (ADR 0505), through the real HTTP server: a client pays
 * an invoice in rupees with 18% tax through the sandbox, the owner refunds part of it, then the rest.
 * The client's credit note page and PDF (the number, the invoice, the seller and buyer as issued, the
 * reason, the amounts before tax, the tax and the total in ₹, the USD value), the owner's page and PDF;
 * nobody else's; the invoice reads "Partially refunded", then "Refunded", on its page, in its PDF, in
 * both invoice lists, the header's search and Download All, and stays paid for the filters.
 */
import { sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { checkoutTokenIn, signedInClient } from "../support/clients";
import { testDatabases } from "../support/databases";
import { refundThroughForm } from "../support/refunds";
import { freePort, startTestServer, type TestServer } from "../support/server";

const BUSINESS = "Portico Credit Notes Test";

async function pdfText(bytes: Uint8Array): Promise<string> {
  const parser = new PDFParse({ data: bytes });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** The text of a page with its tags taken out (one space for each), for reading it as a person does. */
const visible = (html: string) =>
  text(html.replace(/<script[\s\S]*?<\/script>/g, " ").replace(/<[^>]+>/g, " ")).replace(/\s+/g, " ");

describe.each(testDatabases)("credit notes on the pages on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.103.${n}`,
  );
  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(db(), query);

  interface Paid {
    session: Session;
    id: string;
    email: string;
    invoice: { id: string; order_id: string; invoice_number: string; total_amount: string };
  }
  let ada: Paid;
  let other: { session: Session };
  /** The first refund's credit note. */
  let cn1: { id: string; credit_note_number: string; total_amount: string; amount_usd: string };

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      PUBLIC_URL: `http://127.0.0.1:${await freePort()}`,
      TAX_RATE_PERCENT: "18",
      BUSINESS_NAME: BUSINESS,
      BUSINESS_TAX_ID: "US-77-1234567",
    });
    ({ session: admin } = await signedIn({ email: "owner.cn@example.com", name: "Owner", role: "admin" }));
    const client = await signedInClient(server.url, db(), "Ada Creditworthy");
    const page = await client.session.get("/client/purchase/email-migration");
    const bought = await client.session.post("/client/purchase/email-migration", {
      checkoutToken: checkoutTokenIn(await page.text()),
      package: "basic",
      quantity: "20",
      currency: "INR",
    });
    const token = new URL(location(bought), server.url).searchParams.get("session")!;
    const pay = await client.session.post("/payments/sandbox/checkout", { session: token, intent: "pay" });
    expect(pay.status).toBe(302);
    const [invoice] = await rows<Paid["invoice"] & { status: string; currency: string }>(
      sql`select id, order_id, invoice_number, total_amount::text, status, currency from invoices
          where client_id = ${client.id}`,
    );
    expect(invoice).toMatchObject({ status: "paid", currency: "INR" });
    ada = { ...client, invoice: invoice! };
    other = await signedInClient(server.url, db(), "Bo Bystander");

    const refund = await refundThroughForm(admin, ada.invoice.id, {
      amount: "1000",
      reason: "Two mailboxes were never migrated",
    });
    expect(refund.status).toBe(200);
    [cn1] = (await rows<typeof cn1>(
      sql`select id, credit_note_number, total_amount::text, amount_usd::text from credit_notes
          where invoice_id = ${ada.invoice.id}`,
    )) as [typeof cn1];
    expect(cn1.total_amount).toBe("1000.00");
    // The client changes their name afterwards: the credit note keeps the buyer as issued.
    const renamed = await ada.session.post("/client/profile", {
      intent: "profile",
      name: "Ada Renamed",
      phone: "",
      company: "",
    });
    expect(renamed.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it("shows the client their credit note: number, date, invoice, parties as issued, reason, amounts, USD value", async () => {
    const res = await ada.session.get(`/client/credit-notes/${cn1.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const page = visible(html);
    expect(html).toContain(`<title>Credit note ${cn1.credit_note_number}`);
    expect(page).toContain(`Credit note ${cn1.credit_note_number}`);
    expect(page).toContain(`for invoice ${ada.invoice.invoice_number}`);
    expect(html).toMatch(
      new RegExp(`<a [^>]*href="/client/invoice/${ada.invoice.id}"[^>]*>${ada.invoice.invoice_number}</a>`),
    );
    expect(page).toMatch(/Date [A-Z][a-z]+ \d{1,2}, \d{4}/);
    // The seller and the buyer as the invoice was issued (the client has been renamed since).
    expect(page).toContain(BUSINESS);
    expect(page).toContain("VAT/Tax ID: US-77-1234567");
    expect(page).toContain("Ada Creditworthy");
    // The document, in main; the portal's sidebar beside it names the client as they are now.
    const document = visible(html.match(/<main[\s\S]*<\/main>/)![0]);
    expect(document).toContain("Ada Creditworthy");
    expect(document).not.toContain("Ada Renamed");
    expect(page).toContain("Reason Two mailboxes were never migrated");
    // ₹1,000 refunded of an invoice with 18% tax: ₹847.46 before tax and ₹152.54 of tax.
    expect(page).toContain("Amount before tax ₹847.46");
    expect(page).toContain("Tax (18%) ₹152.54");
    expect(page).toContain("Total credited ₹1,000.00");
    const usd = Number(cn1.amount_usd).toFixed(2);
    expect(page).toMatch(new RegExp(`Total credited in USD: \\$${usd} at [\\d.]+ INR per USD`));
    expect(page).toContain("Print");
    expect(html).toMatch(new RegExp(`href="/client/credit-notes/${cn1.id}/pdf"[^>]*download`));
  });

  it("sends the client a real PDF of it, named after its number, with the same content", async () => {
    const res = await ada.session.get(`/client/credit-notes/${cn1.id}/pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="${cn1.credit_note_number}.pdf"`,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
    const pdf = await pdfText(bytes);
    expect(pdf).toContain("CREDIT NOTE");
    expect(pdf).toContain(cn1.credit_note_number);
    expect(pdf).toContain(`for invoice ${ada.invoice.invoice_number}`);
    expect(pdf).toContain(BUSINESS);
    expect(pdf).toContain("Ada Creditworthy");
    expect(pdf).toContain("Two mailboxes were never migrated");
    expect(pdf).toMatch(/Total credited\s+₹1,000\.00/);
    expect(pdf).toMatch(/Tax \(18%\)\s+₹152\.54/);
    expect(pdf).toContain("Total credited in USD:");
    expect(pdf).not.toMatch(/INR\s*[\d,.]+\d/);
  });

  it("shows nobody else the credit note: another client gets 404, a visitor signs in first", async () => {
    const page = await other.session.get(`/client/credit-notes/${cn1.id}`);
    expect(page.status).toBe(404);
    const body = await page.text();
    expect(body).toContain("Credit Note Not Found");
    expect(body).not.toContain(cn1.credit_note_number);
    expect((await other.session.get(`/client/credit-notes/${cn1.id}/pdf`)).status).toBe(404);
    for (const bad of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      expect((await ada.session.get(`/client/credit-notes/${bad}`)).status, bad).toBe(404);
      expect((await ada.session.get(`/client/credit-notes/${bad}/pdf`)).status, bad).toBe(404);
    }
    for (const path of [`/client/credit-notes/${cn1.id}`, `/client/credit-notes/${cn1.id}/pdf`]) {
      const anon = await server.get(path);
      expect(anon.status).toBe(302);
      expect(location(anon)).toBe(`/client/login?redirectTo=${encodeURIComponent(path)}`);
    }
  });

  it("shows the owner the same credit note in the back office, with its invoice, order and PDF; clients get 404", async () => {
    const res = await admin.get(`/admin/credit-notes/${cn1.id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const page = visible(html);
    expect(page).toContain(`Credit note ${cn1.credit_note_number}`);
    expect(page).toContain("Ada Creditworthy");
    expect(page).toContain("Total credited ₹1,000.00");
    expect(html).toContain(`href="/admin/invoices/${ada.invoice.id}"`);
    expect(html).toContain(`href="/admin/orders/${ada.invoice.order_id}"`);
    expect(html).toContain(`href="/admin/credit-notes/${cn1.id}/pdf"`);
    // The refund's row on the invoice's page links here.
    const invoicePage = await (await admin.get(`/admin/invoices/${ada.invoice.id}`)).text();
    expect(invoicePage).toContain(`href="/admin/credit-notes/${cn1.id}"`);

    const pdf = await admin.get(`/admin/credit-notes/${cn1.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-disposition")).toBe(
      `attachment; filename="${cn1.credit_note_number}.pdf"`,
    );
    expect(await pdfText(new Uint8Array(await pdf.arrayBuffer()))).toContain(cn1.credit_note_number);

    for (const path of [`/admin/credit-notes/${cn1.id}`, `/admin/credit-notes/${cn1.id}/pdf`]) {
      expect((await ada.session.get(path)).status, path).toBe(404);
      expect((await server.get(path)).status, path).toBe(404);
    }
    for (const bad of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      expect((await admin.get(`/admin/credit-notes/${bad}`)).status, bad).toBe(404);
      expect((await admin.get(`/admin/credit-notes/${bad}/pdf`)).status, bad).toBe(404);
    }
  });

  it("links the client's Refund Issued notification to the credit note's page", async () => {
    const [note] = await rows<{ href: string }>(
      sql`select href from notifications where user_id = ${ada.id} and title = 'Refund Issued'`,
    );
    expect(note!.href).toBe(`/client/credit-notes/${cn1.id}`);
    expect((await ada.session.get(note!.href)).status).toBe(200);
  });

  it("reads Partially refunded, then Refunded, on the invoice, its PDF, the lists, search and Download All; stays paid", async () => {
    const total = Number(ada.invoice.total_amount);
    const totalText = `₹${total.toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    const invoicePage = async () =>
      visible(await (await ada.session.get(`/client/invoice/${ada.invoice.id}`)).text());
    const invoicePdf = async () => {
      const res = await ada.session.get(`/invoice/${ada.invoice.id}/pdf`);
      expect(res.status).toBe(200);
      return pdfText(new Uint8Array(await res.arrayBuffer()));
    };
    const clientRow = async (query: string) => {
      const html = await (await ada.session.get(`/client/invoices${query}`)).text();
      return html.match(new RegExp(`<tr[^>]*data-invoice-id="${ada.invoice.id}"[\\s\\S]*?</tr>`))?.[0] ?? "";
    };
    const adminRow = async (query: string) => {
      const html = await (await admin.get(`/admin/invoices${query}`)).text();
      return (
        html.match(
          new RegExp(`<tr[^>]*>(?:(?!</tr>)[\\s\\S])*?${ada.invoice.invoice_number}[\\s\\S]*?</tr>`),
        )?.[0] ?? ""
      );
    };

    let page = await invoicePage();
    expect(page).toContain(`Invoice ${ada.invoice.invoice_number} Partially refunded`);
    expect(page).toContain(`₹1,000.00 of ${totalText} refunded`);
    expect(page).toContain(`Credit note ${cn1.credit_note_number}`);
    expect(await (await ada.session.get(`/client/invoice/${ada.invoice.id}`)).text()).toContain(
      `href="/client/credit-notes/${cn1.id}"`,
    );
    expect(page).not.toContain("Pay Now");
    let pdf = await invoicePdf();
    expect(pdf).toContain("PARTIALLY REFUNDED");
    expect(pdf).toMatch(/Refunded\s+₹1,000\.00/);
    expect(pdf).toContain(`(credit note ${cn1.credit_note_number})`);
    // The lists: the status column reads it; the paid filter still holds the invoice (status paid).
    expect(await clientRow("")).toMatch(/data-status="partially_refunded"[^>]*>Partially refunded</);
    expect(await clientRow("?status=paid")).toContain("Partially refunded");
    expect(await adminRow("")).toMatch(/data-status="partially_refunded"[^>]*>Partially refunded</);
    expect(await adminRow("?status=paid")).toContain("Partially refunded");
    // The header's search finds it with the same status.
    const search = await (
      await ada.session.get(`/client/search?q=${encodeURIComponent(ada.invoice.invoice_number)}`)
    ).text();
    expect(search).toMatch(/data-status="partially_refunded"[^>]*>Partially refunded</);

    // The rest.
    const rest = await refundThroughForm(admin, ada.invoice.id, {
      amount: String((total - 1000).toFixed(2)),
      reason: "Project called off",
    });
    expect(rest.status).toBe(200);
    const notes = await rows<{ id: string; credit_note_number: string }>(
      sql`select id, credit_note_number from credit_notes where invoice_id = ${ada.invoice.id}
          order by credit_note_seq`,
    );
    expect(notes.map((n) => n.credit_note_number)[0]).toBe(cn1.credit_note_number);
    const cn2 = notes[1]!;
    page = await invoicePage();
    expect(page).toContain(`Invoice ${ada.invoice.invoice_number} Refunded`);
    expect(page).toContain(`${totalText} of ${totalText} refunded`);
    expect(page).toContain(`Credit note ${cn1.credit_note_number} Credit note ${cn2.credit_note_number}`);
    pdf = await invoicePdf();
    expect(pdf).toContain("REFUNDED");
    expect(pdf).not.toContain("PARTIALLY");
    expect(pdf).toContain(`(credit notes ${cn1.credit_note_number}, ${cn2.credit_note_number})`);
    expect(await clientRow("?status=paid")).toMatch(/data-status="refunded"[^>]*>Refunded</);
    expect(await adminRow("?status=paid")).toMatch(/data-status="refunded"[^>]*>Refunded</);
    const [stored] = await rows<{ status: string }>(
      sql`select status from invoices where id = ${ada.invoice.id}`,
    );
    expect(stored!.status).toBe("paid");

    // Download All prints the same PDF as the invoice's own.
    const zip = await ada.session.get("/client/invoices/download-all");
    expect(zip.status).toBe(200);
    const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const inZip = await pdfText(files[`${ada.invoice.invoice_number}.pdf`]!);
    expect(inZip).toContain(`(credit notes ${cn1.credit_note_number}, ${cn2.credit_note_number})`);
  });
});
