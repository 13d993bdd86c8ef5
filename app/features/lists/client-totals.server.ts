/**
 * A client's counts and USD sums per order and invoice status, read from `client_totals` (kept by
 * triggers on orders and invoices: drizzle/0005_client_totals.sql). The sums are net of refunds: each
 * row adds `amount_usd - refunded_usd` (drizzle/0011_refunds.sql). One query of a few rows, whatever
 * the number of orders; the portal's cards, chips and list counts all come from it
 * (docs/decisions/0801-portal-pages-flat-with-data.md).
 */
import { eq, sql } from "drizzle-orm";
import { type Database, preparedOnce } from "~/db/client.server";
import { clientTotals } from "~/db/schema";

export interface StatusTotal {
  count: number;
  amountUsd: number;
}

export interface ClientTotals {
  orders: StatusTotals;
  invoices: StatusTotals;
}

/** Totals by status; `count(...)` and `amount(...)` add up several statuses (0 for none). */
export class StatusTotals {
  constructor(private readonly byStatus: ReadonlyMap<string, StatusTotal>) {}

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

/** Every portal list page and the dashboard read it: prepared once (ADR 0820). */
const totalsStatement = preparedOnce((db) =>
  db
    .select({
      kind: clientTotals.kind,
      status: clientTotals.status,
      count: clientTotals.count,
      amountUsd: clientTotals.amountUsd,
    })
    .from(clientTotals)
    .where(eq(clientTotals.clientId, sql.placeholder("clientId")))
    .prepare("client_totals"),
);

export async function loadClientTotals(db: Database, clientId: string): Promise<ClientTotals> {
  const rows = await totalsStatement(db).execute({ clientId });
  const orders = new Map<string, StatusTotal>();
  const invoices = new Map<string, StatusTotal>();
  for (const r of rows) {
    (r.kind === "order" ? orders : invoices).set(r.status, {
      count: Number(r.count),
      amountUsd: Number(r.amountUsd),
    });
  }
  return { orders: new StatusTotals(orders), invoices: new StatusTotals(invoices) };
}
