/**
 * The client's invoices page's data (/client/invoices): one page of the list, each row written as it
 * is shown (amounts in the invoice's currency, days in the seller's calendar like the invoice itself),
 * so the rows of one day share one string (docs/decisions/0821-fewer-bytes-icon-sprite.md).
 */
import type { Database } from "~/db/client.server";
import { toColumns } from "~/features/lists/columns";
import type { ListQuery } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import { formatDate } from "~/ui/format";
import type { ClientCreditNoteRowData } from "./ClientInvoiceRow";
import { clientCreditNotePath } from "./credit-note-number";
import { creditNotesOfInvoices } from "./invoice-credit-notes.server";
import type { ClientInvoiceFilter } from "./invoice-filters";
import { listInvoices } from "./invoice-lists.server";
import { isPastDue, shownInvoiceStatus } from "./invoice-status";

export async function clientInvoicesPage(
  db: Database,
  clientId: string,
  query: ListQuery<ClientInvoiceFilter>,
  now: Date,
) {
  const { rows, ...page } = await listInvoices(db, { clientId }, query);
  // Each invoice's credit notes under it (issue 37, item 3): what came back, as a negative amount.
  // Read only for a page with refunded invoices, so the others cost no query more.
  const notes = await creditNotesOfInvoices(
    db,
    clientId,
    rows.filter((inv) => inv.refundedAmount > 0).map((inv) => inv.id),
  );
  const numberOf = new Map(rows.map((inv) => [inv.id, inv.invoiceNumber]));
  const creditNotes: ClientCreditNoteRowData[] = notes.map((n) => ({
    id: n.id,
    number: n.creditNoteNumber,
    invoiceId: n.invoiceId,
    invoiceNumber: numberOf.get(n.invoiceId) ?? "",
    date: formatDate(n.createdAt),
    amount: formatMoney(-n.totalAmount, n.currency),
    href: clientCreditNotePath(n.id),
  }));
  return {
    query,
    ...page,
    creditNotes,
    rows: toColumns(
      rows.map((inv) => ({
        id: inv.id,
        number: inv.invoiceNumber,
        kind: inv.kind,
        service: inv.serviceName,
        date: formatDate(inv.createdAt),
        due: formatDate(inv.dueDate),
        pastDue: isPastDue(inv.dueDate, inv.status, now),
        paid: inv.paidAt && formatDate(inv.paidAt),
        amount: formatMoney(inv.totalAmount, inv.currency),
        tax: inv.taxAmount > 0 ? formatMoney(inv.taxAmount, inv.currency) : null,
        // As every page shows it: overdue once past due, refunded or partially refunded (ADR 0505).
        status: shownInvoiceStatus(inv, now),
      })),
    ),
  };
}
