/**
 * "Covered by your plan" on the purchase page of per-incident support (issue 38, item 6): for each plan
 * of the client that has incidents left this period, the plan, how many are left, and the button that
 * orders one incident against it instead of paying. The form names the period only; the server decides
 * whether it covers the order.
 */
import { Form, useNavigation } from "react-router";
import { buttonClass } from "~/ui/button";
import { cn } from "~/ui/cn";
import { Icon } from "~/ui/icon";
import { type CoveredIncidentChoice, incidentsLeftText } from "./covered-incidents";

export function CoveredIncidentOffer({ choice }: { choice: CoveredIncidentChoice }) {
  const navigation = useNavigation();
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "covered";
  return (
    <section
      aria-labelledby="covered-heading"
      className="mt-8 rounded-xl border border-brand-100 bg-brand-50 p-6"
      data-testid="covered-offer"
    >
      <h2 id="covered-heading" className="text-lg font-semibold">
        Covered by your plan
      </h2>
      <ul className="mt-3 space-y-3">
        {choice.offers.map((offer) => (
          <li key={offer.periodId}>
            <Form method="post" className="flex flex-wrap items-center justify-between gap-4">
              <input type="hidden" name="intent" value="covered" />
              <input type="hidden" name="checkoutToken" value={choice.checkoutToken} />
              <input type="hidden" name="periodId" value={offer.periodId} />
              <p className="text-slate-700">
                <span className="font-semibold text-ink">{offer.planName}</span>:{" "}
                <span data-testid="covered-left">{incidentsLeftText(offer.left, offer.allowance)}</span>
                <span className="block text-sm text-slate-600">{offer.period}</span>
              </p>
              <button
                type="submit"
                className={cn(buttonClass("primary"), "shrink-0")}
                disabled={sending}
                aria-busy={sending}
              >
                {sending && <Icon name="loader-circle" className="size-4 animate-spin" />}
                Order with {offer.planName}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-slate-600">
        Nothing to pay: one incident is counted against your plan, and you tell us what is wrong on the
        order&apos;s page. To pay for incidents instead, use the form below.
      </p>
    </section>
  );
}
