import { Link } from "react-router";
import { InvoiceActions } from "~/features/admin/InvoiceActions";
import { getInvoiceDetail, invoiceAdminAction } from "~/features/admin/invoice-page.server";
import { RefundPanel } from "~/features/admin/RefundPanel";
import {
  adminRefundDeps,
  idParam,
  newRefundFormToken,
  requireAdmin,
} from "~/features/admin/route-helpers.server";
import { DefinitionList, HistoryList, Outcome } from "~/features/admin/ui";
import { EInvoiceLinks } from "~/features/invoices/DocumentParts";
import { eInvoiceOffer, invoiceAsEInvoice } from "~/features/invoices/einvoice-files.server";
import { invoiceKindTitle } from "~/features/invoices/invoice-kind";
import { invoiceStatusLabel } from "~/features/invoices/invoice-status";
import { issuedPartyLines, netPaidLine, refundedLine, totalLine } from "~/features/invoices/invoice-view";
import { getInvoiceDocument } from "~/features/invoices/invoices.server";
import { formatMoney } from "~/features/money/format";
import { pageTitle } from "~/features/site/meta";
import { readDocumentTax, taxTreatmentWords } from "~/features/tax/document-tax";
import { StatusBadge } from "~/ui/badge";
import { Card } from "~/ui/card";
import { actionResponse } from "~/ui/form";
import { formatDate, formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/invoice";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Invoice · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = idParam(params.invoiceId);
  const detail = await getInvoiceDetail(context.runtime.database.db, id);
  if (!detail) throw new Response("Not Found", { status: 404 });
  // As issued: editing the client's profile or the business settings later changes neither (ADR 0504).
  const parties = issuedPartyLines(detail.invoice, detail.client, context.runtime.config.business);
  const document = await getInvoiceDocument(context.runtime.database.db, id);
  const e = document
    ? await invoiceAsEInvoice(context.runtime.database.db, document, context.runtime.config)
    : null;
  const eInvoice = e ? eInvoiceOffer(e.doc, e.stored, `/admin/invoices/${id}/e-invoice`) : null;
  return { ...detail, parties, eInvoice, refundToken: newRefundFormToken(context, id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminRefundDeps(request, context);
  const id = idParam(params.invoiceId);
  return actionResponse(await invoiceAdminAction(deps, id, Object.fromEntries(await request.formData())));
}

export default function AdminInvoice({ loaderData: d, actionData }: Route.ComponentProps) {
  const { invoice: i, client, order } = d;
  return (
    <Page
      title={`${invoiceKindTitle(i.kind)} ${i.invoiceNumber}`}
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
            [
              "Status",
              <StatusBadge key="s" status={d.shownStatus} label={invoiceStatusLabel(d.shownStatus)} />,
            ],
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
            ["VAT treatment", taxTreatmentWords(readDocumentTax(i.tax, i.taxRatePercent))],
            ["E-invoice", d.eInvoice ? <EInvoiceLinks key="e" offer={d.eInvoice} showProblems /> : "—"],
            // The amount once; in USD too only when the invoice is in another currency (issue 37, item 3).
            ["Total", totalLine(i)],
            ["Issued", formatDateTime(i.createdAt)],
            ["Due", formatDate(i.dueDate)],
            ["Paid", formatDateTime(i.paidAt)],
            ["Payment reference", i.paymentReference ?? "—"],
            ...(i.refundedAmount > 0
              ? ([
                  ["Refunded", refundedLine(i.totalAmount, i.refundedAmount, i.currency)],
                  ["Net paid", netPaidLine(i)],
                ] as [string, string][])
              : []),
          ]}
        />
      </Card>
      <Card title="As issued">
        <DefinitionList
          items={[
            ["Bill to", <PartyLines key="b" lines={d.parties.billTo} testId="issued-bill-to" />],
            ["From", <PartyLines key="s" lines={d.parties.seller} testId="issued-seller" />],
          ]}
        />
      </Card>
      <RefundPanel
        currency={i.currency}
        refundable={d.refundable}
        via={d.refundVia}
        refunds={d.refunds}
        token={d.refundToken}
        step={actionData}
      />
      <InvoiceActions status={i.status} />
      <Card title="History">
        <HistoryList entries={d.history} />
      </Card>
    </Page>
  );
}

function PartyLines({ lines, testId }: { lines: string[]; testId: string }) {
  if (lines.length === 0) return "—";
  return (
    <span data-testid={testId} className="block">
      {lines.map((line) => (
        <span key={line} className="block wrap-anywhere">
          {line}
        </span>
      ))}
    </span>
  );
}
