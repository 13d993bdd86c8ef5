import { data, Form, Link } from "react-router";
import { z } from "zod";
import { getInvoiceDetail, resendInvoice } from "~/features/admin/invoices.server";
import { adminDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { DefinitionList, HistoryList, Outcome } from "~/features/admin/ui";
import { formatMoney } from "~/features/currency/currency";
import { markInvoicePaid, voidInvoice } from "~/features/invoices/invoice-lifecycle.server";
import { isUnpaidOrOverdue } from "~/features/invoices/invoice-status";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { TextField } from "~/ui/field";
import { parseForm } from "~/ui/form";
import { formatDate, formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Invoice · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const detail = await getInvoiceDetail(context.runtime.database.db, idParam(params.invoiceId));
  if (!detail) throw new Response("Not Found", { status: 404 });
  return detail;
}

const invoiceAction = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("mark-paid"),
    reference: z
      .string()
      .trim()
      .min(2, { message: "Enter the bank transfer's reference" })
      .max(200, { message: "The reference must be at most 200 characters" }),
  }),
  z.object({ intent: z.literal("resend") }),
  z.object({
    intent: z.literal("void"),
    reason: z
      .string()
      .trim()
      .max(500, { message: "The reason must be at most 500 characters" })
      .optional()
      .transform((v) => v || null),
  }),
]);

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminDeps(request, context);
  const id = idParam(params.invoiceId);
  const parsed = parseForm(invoiceAction, Object.fromEntries(await request.formData()));
  if (!parsed.ok) return data(parsed, 400);
  const input = parsed.data;
  const result =
    input.intent === "mark-paid"
      ? await markInvoicePaid(deps, id, input.reference)
      : input.intent === "resend"
        ? await resendInvoice(deps, id)
        : await voidInvoice(deps, id, input.reason);
  if (!result.ok) return data(result, result.status);
  context.runtime.outbox.wake();
  return result;
}

export default function AdminInvoice({ loaderData: d, actionData }: Route.ComponentProps) {
  const { invoice: i, client, order } = d;
  const status = d.overdue ? "overdue" : i.status;
  const open = isUnpaidOrOverdue(i.status);
  return (
    <Page
      title={`Invoice ${i.invoiceNumber}`}
      actions={
        <Link to="/admin/invoices" className="text-brand-700 underline">
          All invoices
        </Link>
      }
    >
      <Outcome result={actionData} />
      <Card title="Invoice">
        <DefinitionList
          items={[
            ["Status", <StatusBadge key="s" status={status} plain />],
            ["Number", <code key="n">{i.invoiceNumber}</code>],
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
            [
              "Order",
              order ? (
                <Link key="o" className="text-brand-700 underline" to={`/admin/orders/${order.id}`}>
                  {order.serviceName} · {order.packageName}
                </Link>
              ) : (
                "—"
              ),
            ],
            ["Subtotal", formatMoney(i.subtotal, i.currency)],
            ["Tax", `${formatMoney(i.taxAmount, i.currency)} (${i.taxRatePercent}%)`],
            ["Total", `${formatMoney(i.totalAmount, i.currency)} (${formatMoney(i.amountUsd, "USD")})`],
            ["Issued", formatDateTime(i.createdAt)],
            ["Due", formatDate(i.dueDate, "iso")],
            ["Paid", formatDateTime(i.paidAt)],
            ["Payment reference", i.paymentReference ?? "—"],
          ]}
        />
      </Card>
      {open && (
        <Card title="Mark paid by bank transfer">
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="mark-paid" />
            <TextField
              label="Bank transfer reference"
              name="reference"
              required
              minLength={2}
              maxLength={200}
              className="w-72"
            />
            <Button type="submit">Mark paid</Button>
          </Form>
        </Card>
      )}
      <Card title="Other actions">
        <div className="flex flex-wrap items-end gap-6">
          {i.status !== "void" && (
            <Form method="post">
              <input type="hidden" name="intent" value="resend" />
              <Button type="submit" variant="secondary">
                Resend by email
              </Button>
            </Form>
          )}
          {open && (
            <Form method="post" className="flex flex-wrap items-end gap-3">
              <input type="hidden" name="intent" value="void" />
              <TextField
                label="Reason for voiding (optional)"
                name="reason"
                maxLength={500}
                className="w-72"
              />
              <Button type="submit" variant="secondary">
                Void invoice
              </Button>
            </Form>
          )}
          {i.status === "void" && (
            <p className="text-sm text-slate-600">This invoice is void. It keeps its number.</p>
          )}
        </div>
      </Card>
      <Card title="History">
        <HistoryList entries={d.history} />
      </Card>
    </Page>
  );
}
