import { data, Form, Link } from "react-router";
import { z } from "zod";
import { orderStatuses } from "~/db/schema";
import { getOrderDetail } from "~/features/admin/orders.server";
import { adminDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { DefinitionList, HistoryList, Outcome } from "~/features/admin/ui";
import { formatMoney } from "~/features/currency/currency";
import { effectiveInvoiceStatus } from "~/features/invoices/invoice-status";
import { transitionOrder } from "~/features/orders/order-lifecycle.server";
import { allowedTransitions, ORDER_STATUS_LABELS, TRANSITION_LABELS } from "~/features/orders/order-status";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { parseForm } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/order";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Order · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const detail = await getOrderDetail(context.runtime.database.db, idParam(params.orderId));
  if (!detail) throw new Response("Not Found", { status: 404 });
  return detail;
}

const transitionForm = z.object({
  to: z.enum(orderStatuses, { message: "Choose a status" }),
  note: z
    .string()
    .trim()
    .max(2000, { message: "The note must be at most 2000 characters" })
    .transform((v) => v || null),
});

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminDeps(request, context);
  const id = idParam(params.orderId);
  const parsed = parseForm(transitionForm, Object.fromEntries(await request.formData()));
  if (!parsed.ok) return data(parsed, 400);
  const result = await transitionOrder(deps, id, parsed.data.to, parsed.data.note);
  if (!result.ok) return data(result, result.status);
  context.runtime.outbox.wake();
  return result;
}

export default function AdminOrder({ loaderData: d, actionData }: Route.ComponentProps) {
  const { order: o, client, invoice } = d;
  const next = allowedTransitions(o.status);
  return (
    <Page
      title={`Order: ${o.serviceName}`}
      actions={
        <Link to="/admin/orders" className="text-brand-700 underline">
          All orders
        </Link>
      }
    >
      <Outcome result={actionData} />
      <Card title="Order">
        <DefinitionList
          items={[
            ["Status", <StatusBadge key="s" status={o.status} plain />],
            ["Order id", <code key="id">{o.id}</code>],
            [
              "Client",
              client ? (
                <Link key="c" className="text-brand-700 underline" to={`/admin/clients/${client.id}`}>
                  {client.name} ({client.email})
                </Link>
              ) : (
                "—"
              ),
            ],
            ["Service", `${o.serviceName} (${o.serviceCategory})`],
            ["Package", `${o.packageName} × ${o.quantity}`],
            [
              "Amount",
              `${formatMoney(o.amountInCurrency, o.currency)} (${formatMoney(o.amountUsd, "USD")} at ${o.exchangeRate})`,
            ],
            [
              "Payment",
              o.provider ? `${o.provider}${o.providerReference ? ` · ${o.providerReference}` : ""}` : "—",
            ],
            ["Ordered", formatDateTime(o.createdAt)],
            ["Paid", formatDateTime(o.paidAt)],
            [
              "Invoice",
              invoice ? (
                <span key="i">
                  <Link className="text-brand-700 underline" to={`/admin/invoices/${invoice.id}`}>
                    {invoice.invoiceNumber}
                  </Link>{" "}
                  <StatusBadge status={effectiveInvoiceStatus(invoice.status, invoice.dueDate)} plain />
                </span>
              ) : (
                "—"
              ),
            ],
          ]}
        />
      </Card>
      <Card title="Change status">
        {next.length === 0 ? (
          <p className="text-sm text-slate-600">
            This order is {ORDER_STATUS_LABELS[o.status].toLowerCase()}: its status is final.
          </p>
        ) : (
          <Form method="post" className="space-y-4">
            <div>
              <label htmlFor="note" className="block text-sm font-medium text-slate-800">
                Note to the client (optional, sent in the email)
              </label>
              <textarea
                id="note"
                name="note"
                rows={3}
                maxLength={2000}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
              />
            </div>
            <div className="flex flex-wrap gap-2">
              {next.map((s) => (
                <Button
                  key={s}
                  type="submit"
                  name="to"
                  value={s}
                  variant={s === "cancelled" ? "secondary" : "primary"}
                >
                  {TRANSITION_LABELS[s]}
                </Button>
              ))}
            </div>
          </Form>
        )}
      </Card>
      <Card title="History">
        <HistoryList entries={d.history} />
      </Card>
    </Page>
  );
}
