/**
 * Invoices that charged VAT because the buyer's VAT number was not yet confirmed by VIES, whose number
 * VIES has confirmed since (issue 40, item 3). They stand as issued; the owner sees them under Needs
 * attention, to credit and reissue with the reverse charge if they choose.
 */
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { clients, invoices } from "~/db/schema";

export interface VatToReissue {
  invoiceId: string;
  invoiceNumber: string;
  clientName: string;
  vatNumber: string;
  confirmedAt: Date | null;
}

export async function invoicesToReissue(db: Database, limit: number): Promise<VatToReissue[]> {
  const rows = await db
    .select({
      invoiceId: invoices.id,
      invoiceNumber: invoices.invoiceNumber,
      clientName: clients.name,
      vatNumber: clients.vatCheckedNumber,
      confirmedAt: clients.vatCheckedAt,
    })
    .from(invoices)
    .innerJoin(clients, eq(clients.id, invoices.clientId))
    .where(
      and(
        sql`(${invoices.tax}->>'vatUnconfirmed')::boolean`,
        eq(clients.vatStatus, "valid"),
        sql`${clients.vatCheckedNumber} = ${invoices.tax}->>'buyerVatNumber'`,
        ne(invoices.status, "void"),
        // Once credited in full there is nothing left to correct.
        gt(sql`${invoices.totalAmount} - ${invoices.refundedAmount}`, 0),
      ),
    )
    .orderBy(desc(invoices.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, vatNumber: r.vatNumber ?? "" }));
}
