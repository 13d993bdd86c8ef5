import { Link } from "react-router";
import type { PaymentThanks } from "~/features/payments/payment-thanks.server";

/**
 * What the thank-you page says was paid (issue 37, item 4): the service, the invoice (a quote's deposit
 * or balance named so) and its amount; after a deposit, the balance still to come.
 */
export function PaymentThanksFacts({ thanks }: { thanks: PaymentThanks }) {
  return (
    <dl
      className="mx-auto mt-6 grid max-w-md grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-xl bg-slate-50 p-4 text-left text-sm"
      data-testid="payment-facts"
    >
      <dt className="text-slate-600">Service</dt>
      <dd>
        {thanks.serviceName}
        <span className="block text-slate-600">{thanks.packageName}</span>
      </dd>
      <dt className="text-slate-600">{thanks.invoiceTitle}</dt>
      <dd>
        <Link to={thanks.invoiceHref} className="text-brand-700 underline">
          {thanks.invoiceNumber}
        </Link>
      </dd>
      <dt className="text-slate-600">Amount</dt>
      <dd className="font-semibold" data-testid="payment-amount">
        {thanks.amount}
      </dd>
      {thanks.balance && (
        <>
          <dt className="text-slate-600">Balance</dt>
          <dd>{thanks.balance}, invoiced on completion</dd>
        </>
      )}
    </dl>
  );
}
