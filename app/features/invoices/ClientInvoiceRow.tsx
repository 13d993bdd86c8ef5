import { Link } from "react-router";
import { StatusBadge } from "~/ui/badge";
import { buttonClass } from "~/ui/button";
import { Td } from "~/ui/table";
import { InvoicePartTag } from "./InvoicePartTag";
import { invoiceStatusLabel, isUnpaidOrOverdue } from "./invoice-status";

/** One row of the client's invoices page, as clientInvoicesPage wrote it. */
export interface ClientInvoiceRowData {
  id: string;
  number: string;
  /** The invoice's kind: a quote's deposit or balance is labelled under its number. */
  kind: string;
  service: string | null;
  date: string;
  due: string;
  pastDue: boolean;
  paid: string | null;
  amount: string;
  tax: string | null;
  status: string;
}

/** A row of the client's invoice list: its dates, amount, status, and View, PDF and Pay Now. */
export function ClientInvoiceRow({ inv }: { inv: ClientInvoiceRowData }) {
  return (
    <tr data-invoice-id={inv.id}>
      <Td className="font-medium whitespace-nowrap">
        {inv.number}
        <InvoicePartTag kind={inv.kind} />
      </Td>
      <Td>{inv.service}</Td>
      <Td className="whitespace-nowrap">{inv.date}</Td>
      <Td className="whitespace-nowrap">
        {inv.pastDue ? (
          <span className="font-semibold text-red-700" data-past-due>
            {inv.due}
            <span className="sr-only"> (past due)</span>
          </span>
        ) : (
          inv.due
        )}
        {inv.paid && <span className="block text-xs text-green-800">{`Paid ${inv.paid}`}</span>}
      </Td>
      <Td className="font-medium whitespace-nowrap">
        {inv.amount}
        {inv.tax && <span className="block text-xs font-normal text-slate-600">incl. tax {inv.tax}</span>}
      </Td>
      <Td>
        <StatusBadge status={inv.status} label={invoiceStatusLabel(inv.status)} />
      </Td>
      <Td>
        <div className="row-actions">
          <Link to={`/invoice/${inv.id}`} className="link">
            View<span className="sr-only">{` invoice ${inv.number}`}</span>
          </Link>
          <a href={`/invoice/${inv.id}/pdf`} className="link">
            Download PDF<span className="sr-only">{` of ${inv.number}`}</span>
          </a>
          {isUnpaidOrOverdue(inv.status) && (
            // A plain form, as <Form reloadDocument> rendered it: paying loads the payment page.
            <form method="post" action={`/client/invoices/${inv.id}/pay`}>
              <button type="submit" className={buttonClass("primary", "px-3 py-1 text-xs")}>
                Pay Now<span className="sr-only">{` invoice ${inv.number}`}</span>
              </button>
            </form>
          )}
        </div>
      </Td>
    </tr>
  );
}

/** A credit note under its invoice in the client's invoice list (issue 37, item 3). */
export interface ClientCreditNoteRowData {
  id: string;
  number: string;
  invoiceId: string;
  invoiceNumber: string;
  date: string;
  /** Negative: what it gave back, in the invoice's currency. */
  amount: string;
  href: string;
}

/** A credit note's row: its number and invoice, its day, the amount given back, View and its PDF. */
export function ClientCreditNoteRow({ note }: { note: ClientCreditNoteRowData }) {
  return (
    <tr data-credit-note-id={note.id} className="bg-slate-50">
      <Td className="font-medium whitespace-nowrap">
        <Link to={note.href} className="link">
          {note.number}
        </Link>
        <span className="block text-xs font-normal text-slate-600">{`Credit note for ${note.invoiceNumber}`}</span>
      </Td>
      <Td className="text-slate-600">Refund</Td>
      <Td className="whitespace-nowrap">{note.date}</Td>
      <Td>—</Td>
      <Td className="font-medium whitespace-nowrap" data-credit-note-amount>
        {note.amount}
      </Td>
      <Td>
        <StatusBadge status="refunded" label="Credit note" />
      </Td>
      <Td>
        <div className="row-actions">
          <Link to={note.href} className="link">
            View<span className="sr-only">{` credit note ${note.number}`}</span>
          </Link>
          <a href={`${note.href}/pdf`} className="link">
            Download PDF<span className="sr-only">{` of ${note.number}`}</span>
          </a>
        </div>
      </Td>
    </tr>
  );
}
