/**
 * Back-office browser tests need a client's orders and invoices, which only the purchase flow makes.
 * PGlite lets one process open its folder, so global-setup calls this before it starts the server: the
 * built app migrates and seeds the fresh database, then the fixtures are written into it.
 */
import { sql } from "drizzle-orm";
import { queryRows } from "~/db/client.server";
import { saveBrief } from "~/features/orders/brief.server";
import { postMessage } from "~/features/orders/conversation.server";
import { addDays, calendarDayOf } from "~/features/plans/periods";
import { saveDraft } from "~/features/quotes/quote-drafts.server";
import { sendQuote } from "~/features/quotes/quote-sending.server";
import { createAccount, createOrder } from "../support/admin-fixtures";
import { declinedPlan } from "../support/plan-declines";
import { createSubscription } from "../support/plans";
import { loadBuild } from "../support/server";

export interface AdminE2eFixtures {
  adminEmail: string;
  /** A client whose order is in progress, for the admin to complete. */
  completeOrder: { clientEmail: string; orderId: string };
  /** A client with an unpaid invoice, for the admin to mark paid. */
  unpaidInvoice: { clientEmail: string; invoiceNumber: string; invoiceId: string };
  /** A client's paid order with its brief answered and a message from the client, for the owner's page. */
  briefOrder: { clientEmail: string; orderId: string };
  /** Another order of the same client, for the inbox (its page is not open elsewhere). */
  inboxOrder: { clientEmail: string; orderId: string };
  /** A quote the owner sent a client of its own (issue "quotes"), for the pages that show one. */
  sentQuote: { clientEmail: string; quoteId: string; quoteNumber: string };
  /**
   * Care plans for the owner's view (issue 38, item 7), one set for every repetition (the test only
   * reads them): a plan renewing in about ten days, and one whose renewal due today was declined (a
   * stolen card: never retried, so the server's own charging job leaves it past due all day).
   */
  carePlans: {
    renewingClient: string;
    pastDueClient: string;
    pastDueOrderId: string;
    pastDueClientId: string;
  };
}

/**
 * The tests change these fixtures (an order completed, an invoice paid), so each repetition of a run
 * (`--repeat-each`, up to this many) gets a set of its own on the same server.
 */
const FIXTURE_SETS = 5;

export const ADMIN_FIXTURES_ENV = "PORTICO_E2E_ADMIN_FIXTURES";

export async function seedAdminFixtures(env: Record<string, string | undefined>): Promise<void> {
  const build = await loadBuild();
  const portico = await build.startPortico({ ...env, LOG_LEVEL: "silent" });
  try {
    const db = portico.runtime.database.db;
    const adminEmail = "e2e-admin@example.com";
    await createAccount(db, { email: adminEmail, name: "E2E Owner", role: "admin" });
    const today = calendarDayOf(new Date());
    const renewing = await createAccount(db, {
      email: "e2e-plan-renewing@example.com",
      name: "Rita Renewing",
    });
    await createSubscription(db, {
      clientId: renewing,
      anchorDay: addDays(today, -20),
      planName: "Care Essentials",
    });
    const pastDueClientId = await createAccount(db, {
      email: "e2e-plan-pastdue@example.com",
      name: "Paul Pastdue",
    });
    const declined = await declinedPlan(db, portico.runtime.config, {
      clientId: pastDueClientId,
      dueDay: today,
      priceUsd: 129,
      planName: "Care Plus",
      decline: { code: "card_declined", declineCode: "stolen_card", message: "Your card was declined." },
    });
    const carePlans = {
      renewingClient: "Rita Renewing",
      pastDueClient: "Paul Pastdue",
      pastDueOrderId: declined.orderId,
      pastDueClientId,
    };
    const sets: AdminE2eFixtures[] = [];
    for (let i = 0; i < FIXTURE_SETS; i++) {
      const completeEmail = `e2e-complete-${i}@example.com`;
      const c1 = await createAccount(db, { email: completeEmail, name: "Clara Complete" });
      const o1 = await createOrder(db, c1, { status: "in_progress" });
      const invoiceEmail = `e2e-invoice-${i}@example.com`;
      const c2 = await createAccount(db, { email: invoiceEmail, name: "Ivan Invoice" });
      const o2 = await createOrder(db, c2, { serviceSlug: "hosting-support" });
      const briefEmail = `e2e-brief-${i}@example.com`;
      const c3 = await createAccount(db, { email: briefEmail, name: "Bea Brief" });
      const o3 = await createOrder(db, c3, { status: "paid", serviceSlug: "email-migration" });
      const deps = { db, config: portico.runtime.config };
      const brief = await saveBrief(deps, {
        clientId: c3,
        orderId: o3.orderId,
        answers: {
          current_provider: "Old Host Mail",
          new_provider: "Microsoft 365",
          domains: "bea-brief.example",
          mailboxes: "7",
          cutover_window: "Saturday morning CET",
        },
      });
      const message = await postMessage(deps, {
        author: { id: c3, role: "client" },
        orderId: o3.orderId,
        body: "The DNS is at our registrar; tell me what you need.",
      });
      if (!brief.ok || !message.ok) throw new Error("could not seed the brief order");
      const o4 = await createOrder(db, c3, { status: "in_progress", serviceSlug: "hosting-support" });
      const quoteEmail = `e2e-quote-${i}@example.com`;
      const c5 = await createAccount(db, { email: quoteEmail, name: "Quinn Quote" });
      const quoteDeps = { db, config: portico.runtime.config, actor: { id: null, email: adminEmail } };
      const draft = await saveDraft(quoteDeps, null, {
        clientId: c5,
        name: "Quinn Quote",
        email: quoteEmail,
        lines: [{ kind: "free", description: "Office network survey", quantity: 1, unitPrice: "480" }],
        validUntil: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        terms: "Payable within 7 days.",
      });
      const sent = draft.ok ? await sendQuote(quoteDeps, draft.id) : draft;
      if (!sent.ok) throw new Error(`could not seed the quote: ${sent.error}`);
      const [quoted] = await queryRows<{ quote_number: string }>(
        db,
        sql`select quote_number from quotes where id = ${sent.id}`,
      );
      sets.push({
        adminEmail,
        completeOrder: { clientEmail: completeEmail, orderId: o1.orderId },
        unpaidInvoice: {
          clientEmail: invoiceEmail,
          invoiceNumber: o2.invoiceNumber,
          invoiceId: o2.invoiceId,
        },
        briefOrder: { clientEmail: briefEmail, orderId: o3.orderId },
        inboxOrder: { clientEmail: briefEmail, orderId: o4.orderId },
        sentQuote: { clientEmail: quoteEmail, quoteId: sent.id, quoteNumber: quoted!.quote_number },
        carePlans,
      });
    }
    process.env[ADMIN_FIXTURES_ENV] = JSON.stringify(sets);
  } finally {
    await portico.close();
  }
}

/** The fixtures of this repetition of the run (`testInfo.repeatEachIndex`; 0 without --repeat-each). */
export function adminFixtures(repeatEachIndex = 0): AdminE2eFixtures {
  const raw = process.env[ADMIN_FIXTURES_ENV];
  if (!raw) throw new Error(`${ADMIN_FIXTURES_ENV} is not set: run through \`npm run test:e2e\`.`);
  const sets = JSON.parse(raw) as AdminE2eFixtures[];
  return sets[repeatEachIndex % sets.length]!;
}
