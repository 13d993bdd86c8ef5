import { invoicePartLabel } from "./invoice-kind";

/**
 * Under an invoice's number in a list: "Deposit" or "Balance" for a quote's part (issue 37, item 2);
 * nothing for an invoice of the whole order.
 */
export function InvoicePartTag({ kind }: { kind: string | null | undefined }) {
  const part = invoicePartLabel(kind);
  return part ? (
    <span className="block text-xs font-normal text-slate-600" data-invoice-part={part}>
      {part}
    </span>
  ) : null;
}
