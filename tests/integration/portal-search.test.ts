/**
 * The portal header's search and the orders page's counts (issue 37, item 14), through the real HTTP
 * server: the search finds a client's orders and invoices by service name ("SSL", "migration"), quotes
 * by their Q- number and credit notes by their CN- number, and suggests them as one types, never
 * anything of another client's; the orders page's four status cards add up to its Total Orders, one
 * order in each of the five statuses, and its filter offers each status.
 */
import { randomInt } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "~/db/client.server";
import { quotes } from "~/db/schema";
import { type FixtureOrder, makeOrders } from "~/features/testing/fixtures.server";
import { accountsOn } from "../support/accounts";
import { type Session, text } from "../support/browserless";
import { testDatabases } from "../support/databases";
import { signedInClient } from "../support/portal";
import { refundThroughForm } from "../support/refunds";
import { startTestServer, type TestServer } from "../support/server";

type Who = Awaited<ReturnType<typeof signedInClient>>;

interface Holdings {
  ssl: FixtureOrder;
  migration: FixtureOrder;
  quote: { id: string; number: string };
  creditNote: { id: string; number: string };
}

describe.each(testDatabases)("the portal's search and order counts on $name", (database) => {
  let server: TestServer;
  let admin: Session;
  let ada: Who;
  let bo: Who;
  const held = new Map<Who, Holdings>();
  const { db, signedIn } = accountsOn(
    () => server,
    (n) => `198.51.107.${n}`,
  );

  const page = async (who: Who, path: string) => {
    const res = await who.session.get(path);
    expect(res.status, path).toBe(200);
    return text(await res.text());
  };

  /** An SSL order paid then partly refunded (its credit note), a pending migration, a sent quote. */
  async function holdingsOf(who: Who, name: string): Promise<Holdings> {
    const [ssl] = await makeOrders(db(), who.userId, {
      serviceSlug: "ssl-setup",
      status: "paid",
      amountUsd: 10,
    });
    const [migration] = await makeOrders(db(), who.userId, { serviceSlug: "email-migration", amountUsd: 80 });
    const refunded = await refundThroughForm(admin, ssl!.invoiceId, {
      amount: "4",
      reason: "One domain fewer",
      reference: `BACK-${name}`,
    });
    expect(refunded.status, text(await refunded.text()).slice(0, 300)).toBe(200);
    const [note] = await queryRows<{ id: string; credit_note_number: string }>(
      db(),
      sql`select id, credit_note_number from credit_notes where invoice_id = ${ssl!.invoiceId}`,
    );
    const number = `Q-2026-${randomInt(1000, 9999)}${name.length}`;
    const [quote] = await db()
      .insert(quotes)
      .values({
        quoteNumber: number,
        clientId: who.userId,
        name,
        email: who.email,
        status: "sent",
        lines: [{ kind: "free", description: "Rack cabling", quantity: 1, unitPriceUsd: 300 }],
        subtotalUsd: 300,
        totalUsd: 300,
        validUntil: "2099-01-01",
        sentAt: new Date(),
      })
      .returning({ id: quotes.id });
    return {
      ssl: ssl!,
      migration: migration!,
      quote: { id: quote!.id, number },
      creditNote: { id: note!.id, number: note!.credit_note_number },
    };
  }

  beforeAll(async () => {
    server = await startTestServer(database, { TRUST_PROXY: "loopback" });
    ({ session: admin } = await signedIn({
      email: "owner.search@example.com",
      name: "Owner",
      role: "admin",
    }));
    [ada, bo] = await Promise.all([
      signedInClient(server.url, db(), "Ada Searcher"),
      signedInClient(server.url, db(), "Bo Searcher"),
    ]);
    held.set(ada, await holdingsOf(ada, "Ada"));
    held.set(bo, await holdingsOf(bo, "Bo"));
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  /** One card of the results page (the bell above it may name other invoices). */
  const results = (html: string, card: string) => {
    const start = html.indexOf(`id="search-${card}"`);
    expect(start, card).toBeGreaterThan(0);
    return html.slice(start, html.indexOf("</section>", start));
  };

  /** Everything of Bo's that Ada's pages must never show. */
  const bosMarks = () => {
    const b = held.get(bo)!;
    return [
      b.ssl.orderId,
      b.ssl.invoiceId,
      b.ssl.invoiceNumber,
      b.migration.orderId,
      b.migration.invoiceNumber,
      b.quote.id,
      b.quote.number,
      b.creditNote.id,
      b.creditNote.number,
    ];
  };
  const noneOfBos = (html: string, what: string) => {
    for (const mark of bosMarks()) expect(html, `${what}: ${mark}`).not.toContain(mark);
  };

  it("finds orders and invoices by service name, never another client's", async () => {
    const a = held.get(ada)!;
    const ssl = await page(ada, "/client/search?q=SSL");
    expect(ssl).toContain(`href="/client/orders/${a.ssl.orderId}"`);
    expect(ssl).toContain(`href="/invoice/${a.ssl.invoiceId}"`);
    expect(ssl).toContain(a.ssl.invoiceNumber);
    expect(results(ssl, "invoices")).not.toContain(a.migration.invoiceNumber);
    noneOfBos(ssl, "SSL");

    const migration = await page(ada, "/client/search?q=migration");
    expect(migration).toContain(`href="/client/orders/${a.migration.orderId}"`);
    expect(migration).toContain(`href="/invoice/${a.migration.invoiceId}"`);
    expect(results(migration, "invoices")).not.toContain(a.ssl.invoiceNumber);
    expect(results(migration, "orders")).not.toContain(a.ssl.orderId);
    noneOfBos(migration, "migration");

    // "All matching invoices" leads to the invoices page, which finds the same by service.
    const list = await page(ada, "/client/invoices?q=migration");
    expect(list).toContain(`data-invoice-id="${a.migration.invoiceId}"`);
    expect(list.match(/data-invoice-id=/g)).toHaveLength(1);
  });

  it("finds quotes by Q- number and credit notes by CN- number, never another client's", async () => {
    const a = held.get(ada)!;
    const b = held.get(bo)!;
    const quote = await page(ada, `/client/search?q=${a.quote.number}`);
    expect(quote).toContain(`href="/client/quotes/${a.quote.id}"`);
    const note = await page(ada, `/client/search?q=${a.creditNote.number}`);
    expect(note).toContain(`href="/client/credit-notes/${a.creditNote.id}"`);
    expect(note).toContain(`For invoice ${a.ssl.invoiceNumber}`);
    // Every quote and credit note of hers; none of Bo's, even searched by its own number.
    for (const q of ["Q-", "CN-", "2026"]) {
      const html = await page(ada, `/client/search?q=${q}`);
      expect(html, q).toContain(q === "CN-" ? a.creditNote.number : a.quote.number);
      noneOfBos(html, q);
    }
    const bosQuote = await page(ada, `/client/search?q=${b.quote.number}`);
    expect(bosQuote).toContain("No quotes match");
    noneOfBos(bosQuote.replaceAll(b.quote.number, ""), "Bo's quote number");
    const bosNote = await page(ada, `/client/search?q=${b.creditNote.number}`);
    expect(bosNote).toContain("No credit notes match");
    noneOfBos(bosNote.replaceAll(b.creditNote.number, ""), "Bo's credit note number");
  });

  it("suggests the client's own services and numbers as one types", async () => {
    const a = held.get(ada)!;
    const suggestions = async (q: string) => {
      const res = await ada.session.get(`/client/search/suggestions?q=${encodeURIComponent(q)}`);
      expect(res.status, q).toBe(200);
      return (await res.json()) as { q: string; suggestions: Array<{ value: string; label: string }> };
    };
    expect((await suggestions("ss")).suggestions).toContainEqual({
      value: "SSL & HTTPS Setup",
      label: "Service",
    });
    expect((await suggestions("migr")).suggestions).toContainEqual({
      value: "Email Migration & Setup",
      label: "Service",
    });
    const numbers = (await suggestions("2026")).suggestions;
    expect(numbers).toEqual(
      expect.arrayContaining([
        { value: a.ssl.invoiceNumber, label: "Invoice" },
        { value: a.quote.number, label: "Quote" },
        { value: a.creditNote.number, label: "Credit note" },
      ]),
    );
    noneOfBos(JSON.stringify(numbers), "suggestions");
    // Too short a text asks for nothing; a visitor gets no suggestions.
    expect((await suggestions("s")).suggestions).toEqual([]);
    const anonymous = await fetch(new URL("/client/search/suggestions?q=ssl", server.url), {
      redirect: "manual",
    });
    expect(anonymous.status).toBeGreaterThanOrEqual(300);
    expect(await anonymous.text()).not.toContain("SSL & HTTPS Setup");
  });

  it("puts every order in exactly one card, the cards adding up, and filters by each of the five statuses", async () => {
    const cara = await signedInClient(server.url, db(), "Cara Counts");
    const statuses = ["pending", "paid", "in_progress", "completed", "cancelled"] as const;
    const made = new Map<string, string>();
    for (const status of statuses) {
      const [order] = await makeOrders(db(), cara.userId, { status, amountUsd: 10 });
      made.set(status, order!.orderId);
    }
    const html = await page(cara, "/client/orders");
    const card = (label: string) => {
      const m = html.match(new RegExp(`>${label}</p><p[^>]*>(\\d+)<`));
      expect(m, label).not.toBeNull();
      return Number(m![1]);
    };
    const cards = {
      pending: card("Pending"),
      active: card("Paid or In Progress"),
      completed: card("Completed"),
      cancelled: card("Cancelled"),
    };
    expect(cards).toEqual({ pending: 1, active: 2, completed: 1, cancelled: 1 });
    expect(card("Total Orders")).toBe(5);
    expect(cards.pending + cards.active + cards.completed + cards.cancelled).toBe(card("Total Orders"));
    // The filter offers all and each status, and each lists its one order.
    const options = [...html.matchAll(/<option value="([a-z_]+)"/g)].map((m) => m[1]);
    expect(options).toEqual(["all", ...statuses]);
    for (const status of statuses) {
      const filtered = await page(cara, `/client/orders?status=${status}`);
      expect(filtered.match(/data-order-id="/g), status).toHaveLength(1);
      expect(filtered).toContain(`data-order-id="${made.get(status)}"`);
    }
  });
});
