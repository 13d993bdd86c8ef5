import { Link } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { clientPlans } from "~/features/plans/client-plans.server";
import { pageTitle } from "~/features/site/meta";
import { taxForClient } from "~/features/tax/client-tax.server";
import { StatusBadge } from "~/ui/badge";
import { ButtonLink } from "~/ui/button";
import { Card } from "~/ui/card";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/plans";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Care Plans", matches) }];

/** Not in the spec (issue 38): the signed-in client's care plans, each with its card and invoices. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const { runtime } = context;
  const rates = (await runtime.currency.rates.get()).rates;
  const { ratePercent: taxRatePercent } = await taxForClient(runtime.database.db, runtime.config, user.id);
  const card = new URL(request.url).searchParams.get("card");
  return {
    plans: await clientPlans(runtime.database.db, user.id, { rates, taxRatePercent }, new Date()),
    cardMessage: card && card in CARD_MESSAGES ? CARD_MESSAGES[card as keyof typeof CARD_MESSAGES] : null,
  };
}

/** After a card update, as the provider's answer says (never text from the address). */
const CARD_MESSAGES = {
  saved: "Your new card is saved: the renewals are charged to it.",
  waiting:
    "The payment provider has not confirmed the card yet. It shows here once it has (within a few minutes).",
  none: "No card was saved.",
};

const linkClass = "font-medium text-brand-700 underline";

export default function Plans({ loaderData }: Route.ComponentProps) {
  const { plans, cardMessage } = loaderData;
  return (
    <Page title="Care Plans" actions={<ButtonLink to="/plans">See the plans</ButtonLink>}>
      {cardMessage && (
        <p role="status" className="rounded-lg bg-brand-50 px-4 py-3 text-slate-800">
          {cardMessage}
        </p>
      )}
      {plans.length === 0 && (
        <Card title="No care plan yet">
          <p className="text-slate-700">
            A care plan looks after your email, certificates and backups every month for a fixed price.{" "}
            <Link to="/plans" className={linkClass}>
              Compare the plans
            </Link>
            .
          </p>
        </Card>
      )}
      {plans.map((plan) => (
        <Card key={plan.id} title={plan.planName} data-plan-id={plan.id}>
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-slate-600">Status</dt>
              <dd>
                <StatusBadge status={plan.status} label={plan.statusLabel} />
                {(plan.ends || plan.switching) && (
                  <span className="ml-2 text-slate-700">{plan.ends ?? plan.switching}</span>
                )}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{plan.cycle === "yearly" ? "Yearly" : "Monthly"} period</dt>
              <dd>{plan.period}</dd>
            </div>
            {plan.renewal && (
              <div>
                <dt className="text-slate-600">Next renewal</dt>
                <dd data-testid="plan-renewal">
                  {plan.renewal.day}: {plan.renewal.amount}{" "}
                  <span className="text-slate-600">({plan.renewal.note})</span>
                </dd>
              </div>
            )}
            <div>
              <dt className="text-slate-600">Card for renewals</dt>
              <dd data-testid="plan-card">{plan.card ?? "None yet: renewals are paid from their invoice"}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Support incidents this period</dt>
              <dd>
                {plan.allowance.used} of {plan.allowance.included} used
              </dd>
            </div>
          </dl>
          {plan.payInvoiceId && (
            <form method="post" action={`/client/invoices/${plan.payInvoiceId}/pay`} className="mt-4">
              <button type="submit" className="font-semibold text-brand-700 underline">
                Pay the first invoice to start the plan
              </button>
            </form>
          )}
          {plan.unpaid && (
            <p className="mt-4">
              <Link to={`/client/invoice/${plan.unpaid.id}`} className={linkClass}>
                {`Pay invoice ${plan.unpaid.number} (${plan.unpaid.amount}) with a new card`}
              </Link>{" "}
              <span className="text-sm text-slate-600">(the card is saved for the renewals)</span>
            </p>
          )}
          {plan.changes.length > 0 && (
            <nav aria-label={`Change ${plan.planName}`} className="mt-4 flex flex-wrap gap-3">
              {plan.changes.map((change) => (
                <ButtonLink key={change.href} to={change.href} variant="secondary">
                  {change.label}
                </ButtonLink>
              ))}
            </nav>
          )}
          <div className="mt-4" />
          <DataTable caption={`${plan.planName} invoices`} head={["Invoice", "Period", "Total", "Status"]}>
            {plan.invoices.map((invoice) => (
              <tr key={invoice.id}>
                <Td className="whitespace-nowrap">
                  <Link to={`/client/invoice/${invoice.id}`} className={linkClass}>
                    {invoice.number}
                  </Link>
                </Td>
                <Td>{invoice.period}</Td>
                <Td className="whitespace-nowrap font-medium">{invoice.total}</Td>
                <Td>
                  <StatusBadge status={invoice.status} />
                </Td>
              </tr>
            ))}
          </DataTable>
        </Card>
      ))}
    </Page>
  );
}
