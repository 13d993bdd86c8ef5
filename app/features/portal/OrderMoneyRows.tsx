/**
 * The order page's money lines (issue 37, item 1): what its invoices received, gave back and still ask,
 * by the one money truth (invoices/money-totals.ts), so they agree with the dashboard, the lists and
 * the invoice itself. Rows of the order's details list.
 */
import type { MoneyFigures } from "~/features/invoices/money-totals";

function MoneyRow({ label, value, name }: { label: string; value: string; name: string }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2" data-money={name}>
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-right font-medium text-ink tabular-nums">{value}</dd>
    </div>
  );
}

export function OrderMoneyRows({ money }: { money: MoneyFigures }) {
  return (
    <>
      <MoneyRow label="Paid" value={money.paid} name="paid" />
      {money.anyRefund && <MoneyRow label="Refunded" value={money.refunded} name="refunded" />}
      {money.anyRefund && <MoneyRow label="Net paid" value={money.netPaid} name="net-paid" />}
      <MoneyRow label="Outstanding" value={money.outstanding} name="outstanding" />
    </>
  );
}
