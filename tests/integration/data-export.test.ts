/**
 * "Download my data" (issue 25, export) through the built server, on each database: the zip opens, its
 * JSON files hold exactly the client's rows as the database has them, its PDFs are PDFs, nothing of
 * another client is in it, the fourth export of a day is refused (429), each export is in the audit
 * log with whoever asked, the owner's export for a client, and who may ask at all.
 */
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { unzipSync } from "fflate";
import { PDFParse } from "pdf-parse";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  contactMessages,
  invoices,
  messageAttachments,
  notifications,
  orderMessages,
  orders,
  quotes,
  session as sessions,
  user,
} from "~/db/schema";
import { DATA_EXPORT_LIMIT_MESSAGE } from "~/features/privacy/data-export";
import {
  dataExportZipStream,
  EXPORT_BUFFER_BYTES,
  exportProfile,
} from "~/features/privacy/data-export.server";
import { type FixtureOrder, makeOrders } from "~/features/testing/fixtures.server";
import { accountsOn } from "../support/accounts";
import { location, type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { signedInClient } from "../support/portal";
import { startTestServer, type TestServer } from "../support/server";

type Files = Record<string, Uint8Array>;

const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const jsonOf = <T = Record<string, unknown>>(files: Files, name: string): T => {
  expect(Object.keys(files), name).toContain(name);
  return JSON.parse(decode(files[name]!)) as T;
};

async function pdfText(bytes: Uint8Array): Promise<string> {
  // A copy: pdf.js takes the buffer it is given (the zip's files share one).
  const parser = new PDFParse({ data: Uint8Array.from(bytes) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

/** Everything a person could read in the zip: names, JSON and README text, the PDFs' text. */
async function allText(files: Files): Promise<string> {
  const parts = await Promise.all(
    Object.entries(files).map(async ([name, bytes]) =>
      name.endsWith(".pdf") ? `${name}\n${await pdfText(bytes)}` : `${name}\n${decode(bytes)}`,
    ),
  );
  return parts.join("\n");
}

async function unzipped(res: Response): Promise<Files> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/zip");
  return unzipSync(new Uint8Array(await res.arrayBuffer()));
}

const ATTACHMENT = new TextEncoder().encode("Ada's export notes: VLAN 42");

describe.each(testDatabases)("data export on $name", (database) => {
  let server: TestServer;
  const accounts = accountsOn(
    () => server,
    (n) => `198.51.105.${n}`,
  );
  const db = () => accounts.db();
  type Who = { session: Session; userId: string; email: string };
  let ada: Who;
  let bea: Who;
  let admin: { id: string; session: Session };
  let adaOrders: FixtureOrder[];
  let beaOrders: FixtureOrder[];
  let adaMessageId: string;
  let beaMessageId: string;
  let adaQuoteNumber: string;

  /** A client's message on an order, with one attachment. */
  async function message(orderId: string, authorId: string, body: string, filename: string) {
    const [m] = await db()
      .insert(orderMessages)
      .values({ orderId, authorId, authorRole: "client", body })
      .returning();
    await db()
      .insert(messageAttachments)
      .values({
        messageId: m!.id,
        filename,
        contentType: "text/plain",
        size: ATTACHMENT.byteLength,
        bytes: ATTACHMENT,
        sha256: createHash("sha256").update(ATTACHMENT).digest("hex"),
      });
    return m!.id;
  }

  beforeAll(async () => {
    server = await startTestServer(database, {
      TRUST_PROXY: "loopback",
      BUSINESS_NAME: "Portico Export Test",
    });
    admin = await accounts.signedIn({ email: "owner.export@example.com", name: "Owner", role: "admin" });
    [ada, bea] = await Promise.all([
      signedInClient(server.url, db(), "Ada Exporter"),
      signedInClient(server.url, db(), "Bea Unrelated"),
    ]);
    adaOrders = [
      ...(await makeOrders(db(), ada.userId, { count: 3, status: "paid", amountUsd: 40 })),
      ...(await makeOrders(db(), ada.userId, { count: 2, status: "pending", currency: "EUR", rate: 0.9 })),
    ];
    beaOrders = await makeOrders(db(), bea.userId, { count: 2, status: "paid", announce: true });
    adaMessageId = await message(adaOrders[0]!.orderId, ada.userId, "Ada asks about VLANs", "ada-notes.txt");
    beaMessageId = await message(beaOrders[0]!.orderId, bea.userId, "Bea asks about DNS", "bea-secret.txt");
    await db()
      .insert(notifications)
      .values([
        { userId: ada.userId, title: "Ada's notice", message: "For Ada only" },
        { userId: bea.userId, title: "Bea's notice", message: "For Bea only" },
      ]);
    // Sent through the contact form: Ada's address in other letter case, and Bea's.
    await db()
      .insert(contactMessages)
      .values([
        {
          name: "Ada Exporter",
          email: ada.email.toUpperCase(),
          subject: "Ada's contact subject",
          message: "Ada asks about mail routing",
          source: "site",
          ipAddress: "203.0.113.77",
          userAgent: "AdaBrowser/1.0",
        },
        {
          name: "Bea Unrelated",
          email: bea.email,
          subject: "Bea's contact subject",
          message: "Bea asks about backups",
          source: "portal",
        },
      ]);
    adaQuoteNumber = `Q-2026-${Math.floor(Math.random() * 9000) + 1000}`;
    await db()
      .insert(quotes)
      .values({
        quoteNumber: adaQuoteNumber,
        clientId: ada.userId,
        name: "Ada Exporter",
        email: ada.email,
        status: "sent",
        lines: [{ kind: "free", description: "Rack cabling", quantity: 1, unitPriceUsd: 300 }],
        subtotalUsd: 300,
        totalUsd: 300,
        validUntil: "2099-01-01",
        sentAt: new Date(),
      });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  /** What no export but Bea's may carry. */
  const beaMarkers = () => [
    bea.email,
    "Bea Unrelated",
    "Bea asks about DNS",
    "bea-secret.txt",
    "For Bea only",
    "Bea asks about backups",
    beaMessageId,
    ...beaOrders.flatMap((o) => [o.orderId, o.invoiceId, o.invoiceNumber]),
  ];

  it("gives the client a zip whose files match the database, with every invoice as a PDF and nothing of another client", async () => {
    const res = await ada.session.post("/client/profile/export", {});
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const files = await unzipped(res);
    const names = Object.keys(files);
    for (const name of [
      "README.txt",
      "profile.json",
      "preferences.json",
      "consents.json",
      "orders.json",
      "invoices.json",
      "quotes.json",
      "messages.json",
      "contact-messages.json",
      "notifications.json",
      "sessions.json",
    ]) {
      expect(names, name).toContain(name);
    }
    // No credit notes nor quote requests: no file for them.
    expect(names).not.toContain("credit-notes.json");
    expect(names).not.toContain("quote-requests.json");
    expect(decode(files["README.txt"]!)).toContain(`the account ${ada.email}`);
    expect(decode(files["README.txt"]!)).toContain("Portico Export Test");

    const profile = jsonOf<{ account: { email: string; id: string }; client: { name: string } }>(
      files,
      "profile.json",
    );
    expect(profile.account).toMatchObject({ id: ada.userId, email: ada.email });
    expect(profile.client.name).toBe("Ada Exporter");

    // Orders and invoices: exactly the database's rows of the client, field for field.
    const dbOrders = await db().select().from(orders).where(eq(orders.clientId, ada.userId));
    const exportedOrders = jsonOf<Array<Record<string, unknown>>>(files, "orders.json");
    expect(exportedOrders.map((o) => o.id).sort()).toEqual(dbOrders.map((o) => o.id).sort());
    for (const o of dbOrders) {
      const e = exportedOrders.find((x) => x.id === o.id)!;
      expect(e).toMatchObject({
        status: o.status,
        amountUsd: o.amountUsd,
        currency: o.currency,
        amountInCurrency: o.amountInCurrency,
        serviceName: o.serviceName,
        createdAt: o.createdAt.toISOString(),
      });
      expect(e).not.toHaveProperty("checkoutToken");
    }
    const dbInvoices = await db().select().from(invoices).where(eq(invoices.clientId, ada.userId));
    const exportedInvoices = jsonOf<Array<Record<string, unknown>>>(files, "invoices.json");
    expect(exportedInvoices).toEqual(
      expect.arrayContaining(dbInvoices.map((i) => expect.objectContaining(JSON.parse(JSON.stringify(i))))),
    );
    expect(exportedInvoices).toHaveLength(dbInvoices.length);

    // Issue 37, item 11: each quote as a PDF, and the files of the conversation (not another client's).
    expect(names).toContain(`quotes/${adaQuoteNumber}.pdf`);
    expect(await pdfText(files[`quotes/${adaQuoteNumber}.pdf`]!)).toContain(adaQuoteNumber);
    const attached = names.filter((n) => n.startsWith("attachments/"));
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatch(/^attachments\/order-[0-9a-f]{8}\/[0-9a-f]{8}-ada-notes\.txt$/);
    expect(files[attached[0]!]).toEqual(new Uint8Array(ATTACHMENT));
    // The Privacy tab says what is left of the day's exports.
    const tab = await (await ada.session.get("/client/profile?tab=privacy")).text();
    expect(text(tab)).toContain("2 of 3 downloads left today.");

    // Every invoice as a PDF, named by its number, opening with %PDF- and printing that number.
    const pdfs = names.filter((n) => n.startsWith("invoices/"));
    expect(pdfs.sort()).toEqual(adaOrders.map((o) => `invoices/${o.invoiceNumber}.pdf`).sort());
    for (const name of pdfs) {
      expect(decode(files[name]!.subarray(0, 5))).toBe("%PDF-");
      expect(await pdfText(files[name]!)).toContain(name.slice("invoices/".length, -".pdf".length));
    }

    // Messages with their files' names, never their bytes.
    const exportedMessages = jsonOf<
      Array<{ id: string; body: string; attachments: Array<Record<string, unknown>> }>
    >(files, "messages.json");
    expect(exportedMessages).toEqual([
      expect.objectContaining({
        id: adaMessageId,
        body: "Ada asks about VLANs",
        attachments: [
          {
            filename: "ada-notes.txt",
            contentType: "text/plain",
            size: ATTACHMENT.byteLength,
            sha256: createHash("sha256").update(ATTACHMENT).digest("hex"),
          },
        ],
      }),
    ]);
    expect(decode(files["messages.json"]!)).not.toContain("VLAN 42");

    // The contact form's messages from Ada's address (any letter case), without the sender's network
    // address, browser or the owner's read mark.
    expect(jsonOf(files, "contact-messages.json")).toEqual([
      {
        name: "Ada Exporter",
        email: ada.email.toUpperCase(),
        subject: "Ada's contact subject",
        message: "Ada asks about mail routing",
        source: "site",
        createdAt: expect.any(String),
      },
    ]);
    expect(decode(files["contact-messages.json"]!)).not.toContain("203.0.113.77");
    expect(decode(files["README.txt"]!)).toContain("contact-messages.json");

    const dbNotifications = await db()
      .select()
      .from(notifications)
      .where(eq(notifications.userId, ada.userId));
    const exportedNotifications = jsonOf<Array<{ id: string }>>(files, "notifications.json");
    expect(exportedNotifications.map((n) => n.id).sort()).toEqual(dbNotifications.map((n) => n.id).sort());

    // Sign-in sessions: their dates and addresses, never their tokens.
    const dbSessions = await db().select().from(sessions).where(eq(sessions.userId, ada.userId));
    const exportedSessions = jsonOf<Array<Record<string, unknown>>>(files, "sessions.json");
    expect(exportedSessions).toHaveLength(dbSessions.length);
    expect(exportedSessions.map((s) => s.createdAt).sort()).toEqual(
      dbSessions.map((s) => s.createdAt.toISOString()).sort(),
    );
    for (const s of dbSessions) {
      expect(exportedSessions.find((e) => e.createdAt === s.createdAt.toISOString())).toEqual({
        createdAt: s.createdAt.toISOString(),
        updatedAt: s.updatedAt.toISOString(),
        expiresAt: s.expiresAt.toISOString(),
        ipAddress: s.ipAddress,
        userAgent: s.userAgent,
      });
      expect(decode(files["sessions.json"]!)).not.toContain(s.token);
    }

    const exportedQuotes = jsonOf<Array<{ quoteNumber: string }>>(files, "quotes.json");
    expect(exportedQuotes.map((q) => q.quoteNumber)).toEqual([adaQuoteNumber]);
    expect(jsonOf(files, "consents.json")).toMatchObject({ newsletter: { subscribed: false } });

    // Nothing of Bea's anywhere: names, JSON, README, the PDFs' text.
    const everything = await allText(files);
    for (const marker of beaMarkers()) expect(everything, marker).not.toContain(marker);
    // And Bea's own export has none of Ada's.
    const beaText = await allText(await unzipped(await bea.session.post("/client/profile/export", {})));
    for (const marker of [
      ada.email,
      "Ada Exporter",
      adaMessageId,
      "Ada asks about mail routing",
      ...adaOrders.map((o) => o.invoiceNumber),
    ]) {
      expect(beaText, marker).not.toContain(marker);
    }
    expect(beaText).toContain(bea.email);
  }, 120_000);

  it("records each export in the audit log and refuses the fourth of the day with a 429", async () => {
    // The first test made one; two more are allowed.
    for (let i = 0; i < 2; i++) await unzipped(await ada.session.post("/client/profile/export", {}));
    const usedUp = await (await ada.session.get("/client/profile?tab=privacy")).text();
    expect(text(usedUp)).toContain("You have used today's 3 downloads; you can download it again tomorrow.");
    const fourth = await ada.session.post("/client/profile/export", {});
    expect(fourth.status).toBe(429);
    expect(await fourth.text()).toBe(DATA_EXPORT_LIMIT_MESSAGE);
    expect(Number(fourth.headers.get("retry-after"))).toBeGreaterThan(0);
    const rows = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "client.data_export"), eq(auditLog.entityId, ada.userId)));
    // Three exports, three rows, each with Ada as actor; the refused one left none.
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row).toMatchObject({ actorId: ada.userId, actorEmail: ada.email, entity: "client" });
      expect(row.after).toMatchObject({ requestedBy: "client" });
    }
  });

  it("lets the owner export a client's data from the back office, audited with the owner as actor", async () => {
    const page = text(await (await admin.session.get(`/admin/clients/${bea.userId}`)).text());
    expect(page).toContain(`action="/admin/clients/${bea.userId}/export"`);
    expect(page).toContain("Export client data");
    const res = await admin.session.post(`/admin/clients/${bea.userId}/export`, {});
    expect(res.headers.get("content-disposition")).toMatch(
      new RegExp(`^attachment; filename="client-data-${bea.userId}-\\d{4}-\\d{2}-\\d{2}\\.zip"$`),
    );
    const files = await unzipped(res);
    expect(jsonOf<{ account: { email: string } }>(files, "profile.json").account.email).toBe(bea.email);
    expect(decode(files["README.txt"]!)).toContain("prepared by the owner");
    const pdfs = Object.keys(files).filter((n) => n.endsWith(".pdf"));
    expect(pdfs.sort()).toEqual(beaOrders.map((o) => `invoices/${o.invoiceNumber}.pdf`).sort());
    for (const name of pdfs) expect(decode(files[name]!.subarray(0, 5))).toBe("%PDF-");
    const everything = await allText(files);
    for (const marker of [
      ada.email,
      "Ada Exporter",
      adaMessageId,
      ...adaOrders.map((o) => o.invoiceNumber),
    ]) {
      expect(everything, marker).not.toContain(marker);
    }
    const [row] = await db()
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, "client.data_export"),
          eq(auditLog.entityId, bea.userId),
          eq(auditLog.actorId, admin.id),
        ),
      );
    expect(row).toMatchObject({ actorEmail: "owner.export@example.com", after: { requestedBy: "owner" } });
  }, 60_000);

  it("lets only the client and the owner ask, and never for an admin's or a deleted account", async () => {
    // Visitors sign in first.
    const anon = accounts.newSession();
    for (const res of [
      await anon.post("/client/profile/export", {}),
      await anon.get("/client/profile/export"),
    ]) {
      expect(res.status).toBe(302);
      expect(location(res)).toMatch(/^\/client\/login\?redirectTo=/);
    }
    // A signed-in GET goes to the Privacy tab, which offers the download.
    expect(location(await bea.session.get("/client/profile/export"))).toBe("/client/profile?tab=privacy");
    const tab = await (await bea.session.get("/client/profile?tab=privacy")).text();
    expect(tab).toContain('action="/client/profile/export"');
    expect(tab).toContain("Download my data");
    // A client asking for another's (or their own) export through the back office: 404, as anyone not admin.
    expect((await bea.session.post(`/admin/clients/${ada.userId}/export`, {})).status).toBe(404);
    expect((await ada.session.post(`/admin/clients/${ada.userId}/export`, {})).status).toBe(404);
    expect((await anon.post(`/admin/clients/${ada.userId}/export`, {})).status).toBe(404);
    // The owner: not for an admin's account, nor an unknown or malformed id.
    for (const id of [admin.id, "no-such-user", "bad id!"]) {
      expect(
        (await admin.session.post(`/admin/clients/${encodeURIComponent(id)}/export`, {})).status,
        id,
      ).toBe(404);
    }
    // A deleted account: the owner's export is a 404 and the client's old session signs in again.
    const gone = await signedInClient(server.url, db(), "Gone Client");
    await db().delete(user).where(eq(user.id, gone.userId));
    expect((await admin.session.post(`/admin/clients/${gone.userId}/export`, {})).status).toBe(404);
    const late = await gone.session.post("/client/profile/export", {});
    expect(late.status).toBe(302);
    expect(location(late)).toMatch(/^\/client\/login/);
    const audited = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(eq(auditLog.entityId, gone.userId));
    expect(audited[0]!.n).toBe(0);
  }, 60_000);

  it("streams a client with 1,000 orders: every order in orders.json, every invoice as a PDF", async () => {
    const big = await signedInClient(server.url, db(), "Big Exporter");
    const made = await makeOrders(db(), big.userId, { count: 1000, status: "paid" });
    // All within one millisecond, a microsecond apart: a page's edge must not lose rows a JS Date
    // (milliseconds) cannot tell apart.
    for (const table of ["orders", "invoices"]) {
      await db().execute(
        sql`update ${sql.identifier(table)} t set created_at = timestamptz '2026-01-01 00:00:00+00' + s.n * interval '1 microsecond'
            from (select id, row_number() over (order by id) as n from ${sql.identifier(table)}
                  where client_id = ${big.userId}) s
            where t.id = s.id`,
      );
    }
    const files = await unzipped(await big.session.post("/client/profile/export", {}));
    const exported = jsonOf<Array<{ id: string }>>(files, "orders.json");
    expect(exported).toHaveLength(1000);
    expect(new Set(exported.map((o) => o.id))).toEqual(new Set(made.map((o) => o.orderId)));
    expect(jsonOf<unknown[]>(files, "invoices.json")).toHaveLength(1000);
    const pdfs = Object.keys(files).filter((n) => n.startsWith("invoices/"));
    expect(new Set(pdfs)).toEqual(new Set(made.map((o) => `invoices/${o.invoiceNumber}.pdf`)));
    for (const name of pdfs) expect(decode(files[name]!.subarray(0, 5))).toBe("%PDF-");
  }, 240_000);

  it("writes no further than a slow reader reads (backpressure), then finishes the zip", async () => {
    const slow = await signedInClient(server.url, db(), "Slow Reader");
    await makeOrders(db(), slow.userId, { count: 30, status: "paid" });
    const profile = await exportProfile(db(), slow.userId);
    let rendered = 0;
    // A stand-in PDF of 256 KiB: 30 of them are far more than the stream may hold unread.
    const pdf = new Uint8Array(256 * 1024);
    pdf.set(new TextEncoder().encode("%PDF-1.7"));
    const stream = dataExportZipStream(
      db(),
      profile!,
      { requestedBy: "client", business: server.portico.runtime.config.business, now: new Date() },
      () => {
        rendered++;
        return pdf;
      },
      (error) => {
        throw error;
      },
    );
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [(await reader.read()).value!];
    // Time enough to write everything were nothing holding it back: it stops near the buffer's size.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rendered).toBeLessThanOrEqual(Math.ceil(EXPORT_BUFFER_BYTES / pdf.byteLength) + 2);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(rendered).toBe(30);
    const files = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(files).filter((n) => n.endsWith(".pdf"))).toHaveLength(30);
  }, 60_000);
});
