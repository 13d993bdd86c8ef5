/**
 * A client's counts and USD sums per order and invoice status, read from `client_totals` (kept by
 * triggers on orders and invoices: drizzle/0005_client_totals.sql). The sums are net of refunds: each
 * row adds `amount_usd - refunded_usd` (drizzle/0011_refunds.sql). One query of a few rows, whatever
 * the number of orders; the portal's cards, chips and list counts all come from it
 * (docs/decisions/0801-portal-pages-flat-with-data.md).
 *
 * The table counts stored statuses; a list whose chips count the status a person sees moves the few
 * rows that read otherwise (`shownAs`): the client's invoices, whose chips count an unpaid invoice past
 * its due date as overdue and a paid one with refunds as (partially) refunded, read the moves in the
 * same statement as the totals (invoices/invoice-lists.server.ts).
 */
import { eq, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { clientTotals, creditNotes, invoices } from "~/db/schema";

export interface StatusTotal {
  count: number;
  amountUsd: number;
}

export interface ClientTotals {
  orders: StatusTotals;
  invoices: StatusTotals;
  /**
   * The client's credit notes (what refunds gave back) by the stored status of their invoice, in USD
   * at each note's rate: `invoices` holds each status net of them (issue 37, invoices/money-totals.ts).
   */
  creditNotes: StatusTotals;
}

/**
 * Rows counted under one status that a page shows under another: `count` rows and their `amountUsd`
 * move from `from` to `to`.
 */
export interface StatusMove {
  from: string;
  to: string;
  count: number;
  amountUsd: number;
}

/** Totals by status; `count(...)` and `amount(...)` add up several statuses (0 for none). */
export class StatusTotals {
  constructor(private readonly byStatus: ReadonlyMap<string, StatusTotal>) {}

  /** The same totals with these rows counted under the status they are shown with. */
  shownAs(moves: readonly StatusMove[]): StatusTotals {
    const cents = new Map<string, { count: number; cents: number }>();
    const add = (status: string, count: number, amountUsd: number) => {
      const t = cents.get(status) ?? { count: 0, cents: 0 };
      cents.set(status, { count: t.count + count, cents: t.cents + Math.round(amountUsd * 100) });
    };
    for (const [status, t] of this.byStatus) add(status, t.count, t.amountUsd);
    for (const m of moves) {
      add(m.from, -m.count, -m.amountUsd);
      add(m.to, m.count, m.amountUsd);
    }
    const shown = new Map<string, StatusTotal>();
    for (const [status, t] of cents) shown.set(status, { count: t.count, amountUsd: t.cents / 100 });
    return new StatusTotals(shown);
  }

  count(...statuses: string[]): number {
    return statuses.reduce((n, s) => n + (this.byStatus.get(s)?.count ?? 0), 0);
  }

  amount(...statuses: string[]): number {
    // Cents, so that adding several sums stays exact.
    const cents = statuses.reduce((n, s) => n + Math.round((this.byStatus.get(s)?.amountUsd ?? 0) * 100), 0);
    return cents / 100;
  }

  /** Every row, whatever its status. */
  all(): number {
    let n = 0;
    for (const t of this.byStatus.values()) n += t.count;
    return n;
  }

  /** Rows whose status is not one of these. */
  countExcept(...statuses: string[]): number {
    return this.all() - this.count(...statuses);
  }

  amountExcept(...statuses: string[]): number {
    let cents = 0;
    for (const [status, t] of this.byStatus) {
      if (!statuses.includes(status)) cents += Math.round(t.amountUsd * 100);
    }
    return cents / 100;
  }
}

/**
 * The client's credit notes summed by their invoice's status, as rows of kind 'credit_note': a union
 * branch of a totals statement, so a page reads its totals and refunds in one statement. It reads the
 * client's notes (few: one per refund) off `credit_notes_client_created_idx`.
 */
export function creditNoteTotalsQuery(db: Database) {
  return db
    .select({
      kind: sql<string>`'credit_note'`,
      status: sql<string>`${invoices.status}`,
      count: sql<number>`count(*)::int`,
      amountUsd: sql<string>`sum(${creditNotes.amountUsd})::text`,
    })
    .from(creditNotes)
    .innerJoin(invoices, eq(invoices.id, creditNotes.invoiceId))
    .where(eq(creditNotes.clientId, sql.placeholder("clientId")))
    .groupBy(invoices.status);
}

/** Every portal list page and the dashboard read it: prepared once (ADR 0820). */
const totalsStatement = preparedOnce((db) =>
  db
    .select({
      kind: sql<string>`${clientTotals.kind}`,
      status: clientTotals.status,
      count: clientTotals.count,
      amountUsd: sql<string>`${clientTotals.amountUsd}::text`,
    })
    .from(clientTotals)
    .where(eq(clientTotals.clientId, sql.placeholder("clientId")))
    .unionAll(creditNoteTotalsQuery(db))
    .prepare("client_totals"),
);

export async function loadClientTotals(db: Database, clientId: string): Promise<ClientTotals> {
  const rows = await totalsStatement(db).execute({ clientId });
  return {
    orders: statusTotalsOf(rows.filter((r) => r.kind === "order")),
    invoices: statusTotalsOf(rows.filter((r) => r.kind === "invoice")),
    creditNotes: statusTotalsOf(rows.filter((r) => r.kind === "credit_note")),
  };
}

/** Totals from rows of `client_totals` (one kind). */
export function statusTotalsOf(
  rows: readonly { status: string; count: number | string; amountUsd: number | string }[],
): StatusTotals {
  const byStatus = new Map<string, StatusTotal>();
  for (const r of rows) byStatus.set(r.status, { count: Number(r.count), amountUsd: Number(r.amountUsd) });
  return new StatusTotals(byStatus);
}
