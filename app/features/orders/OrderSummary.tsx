/**
 * The purchase page's order summary: what the form's choices cost, and the button that sends them (or,
 * for a visitor, the way to sign in). The amount shown is a preview; the server prices the order.
 */

import { Link } from "react-router";
import { formatMoney } from "~/features/money/format";
import { COUNTRY_NEEDED, type DocumentTax, taxLineLabel } from "~/features/tax/document-tax";
import { buttonClass } from "~/ui/button";
import { cardClass } from "~/ui/card-class";
import { Icon } from "~/ui/icon";
import type { OrderPrice } from "./pricing";

export function OrderSummary({
  serviceName,
  packageName,
  quantityLabel,
  quantity,
  price,
  tax,
  countryNeeded,
  signedIn,
  processing,
  loginHref,
  registerHref,
}: {
  serviceName: string;
  packageName: string;
  /** The quantity selector's label, or null when the service is bought once per order. */
  quantityLabel: string | null;
  quantity: number;
  price: OrderPrice;
  /** The VAT treatment the invoice will carry (issue 40). */
  tax: DocumentTax;
  /** An EU seller needs the billing country before selling (the VAT depends on it). */
  countryNeeded: boolean;
  signedIn: boolean;
  /** The form is being sent. */
  processing: boolean;
  loginHref: string;
  registerHref: string;
}) {
  return (
    <section aria-labelledby="summary-heading" className={cardClass("h-fit p-6")}>
      <h2 id="summary-heading" className="text-lg font-semibold">
        Order Summary
      </h2>
      <dl className="mt-4 space-y-2 text-sm">
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Service</dt>
          <dd className="text-right">{serviceName}</dd>
        </div>
        <div className="flex justify-between gap-4">
          <dt className="text-slate-600">Package</dt>
          <dd data-testid="summary-package">{packageName}</dd>
        </div>
        {quantityLabel && (
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600">{quantityLabel}</dt>
            <dd data-testid="summary-quantity">{quantity}</dd>
          </div>
        )}
        {price.addons.map((a) => (
          <div key={a.key} className="flex justify-between gap-4">
            <dt className="text-slate-600">
              {a.name}
              {a.quantity > 1 ? ` × ${a.quantity}` : ""}
            </dt>
            <dd data-testid={`summary-addon-${a.key}`} suppressHydrationWarning>
              {formatMoney(a.amountInCurrency, price.currency)}
            </dd>
          </div>
        ))}
        {(tax.ratePercent > 0 || tax.note) && (
          <div className="flex justify-between gap-4">
            <dt className="text-slate-600" data-testid="summary-tax-label">
              {taxLineLabel(tax)}
            </dt>
            <dd suppressHydrationWarning>{formatMoney(price.taxAmount, price.currency)}</dd>
          </div>
        )}
        <div className="flex justify-between gap-4 border-t border-slate-200 pt-3 text-base font-bold">
          <dt>Total</dt>
          <dd className="text-right">
            <span data-testid="summary-total" suppressHydrationWarning>
              {formatMoney(price.total, price.currency)}
            </span>
            {price.currency !== "USD" && (
              <span
                data-testid="summary-usd"
                className="block text-sm font-normal text-slate-500"
                suppressHydrationWarning
              >
                {formatMoney(price.totalUsd, "USD")} USD
              </span>
            )}
          </dd>
        </div>
      </dl>
      {tax.note && (
        <p data-testid="summary-tax-note" className="mt-3 text-xs text-slate-600">
          {tax.note}
        </p>
      )}
      {signedIn && countryNeeded ? (
        <p role="note" className="mt-6 text-sm text-slate-700">
          {COUNTRY_NEEDED}{" "}
          <Link to="/client/profile" className="font-medium text-brand-700 underline">
            Open your profile
          </Link>
        </p>
      ) : signedIn ? (
        <button
          type="submit"
          className={buttonClass("primary", "mt-6 w-full")}
          disabled={processing}
          aria-busy={processing}
        >
          {processing ? (
            <>
              <Icon name="loader-circle" className="size-4 animate-spin" /> Processing...
            </>
          ) : (
            "Proceed to Payment"
          )}
        </button>
      ) : (
        <>
          <button type="button" className={buttonClass("primary", "mt-6 w-full")} disabled>
            Login to Purchase
          </button>
          <p className="mt-3 text-center text-sm text-slate-600">
            <Link to={loginHref} className="font-semibold text-brand-700 underline">
              Sign in
            </Link>{" "}
            or{" "}
            <Link to={registerHref} className="font-semibold text-brand-700 underline">
              create an account
            </Link>{" "}
            to buy this service.
          </p>
        </>
      )}
      <p className="mt-4 text-xs text-slate-500">
        The amount is confirmed by our server when you proceed; you pay on the payment provider&apos;s page.
      </p>
    </section>
  );
}
