/**
 * The back office's client page (/admin/clients/{id}): the client's care plans, orders and invoices
 * (first page, with links to all), and "Delete client" for a request by email (issue 25).
 */

import { Form, Link } from "react-router";
import { InvoicePartTag } from "~/features/invoices/InvoicePartTag";
import type { InvoiceListRow } from "~/features/invoices/invoice-lists.server";
import { invoiceStatusLabel } from "~/features/invoices/invoice-status";
import type { Paged } from "~/features/lists/listing";
import { formatMoney } from "~/features/money/format";
import type { OrderListRow } from "~/features/orders/order-lists.server";
import { orderStatusLabel } from "~/features/orders/order-status";
import type { OwnersClientPlan } from "~/features/plans/plan-subscribers.server";
import { DeleteConfirmField } from "~/features/privacy/DeleteConfirmField";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Alert, PasswordField } from "~/ui/field";
import { type ActionResult, formErrors } from "~/ui/form";
import { formatDate } from "~/ui/format";
import { EmptyState } from "~/ui/list";
import { DataTable, Td } from "~/ui/table";

/** The client's care plans (ADR 0531): each with its cycle, status in the client's words and next renewal. */
export function ClientCarePlans({ plans }: { plans: OwnersClientPlan[] }) {
  return (
    <Card title={`Care plans (${plans.length})`}>
      {plans.length === 0 ? (
        <p className="text-sm text-slate-600">No care plan.</p>
      ) : (
        <DataTable caption="The client's care plans" head={["Plan", "Cycle", "Status", "Next renewal"]}>
          {plans.map((p) => (
            <tr key={p.id}>
              <Td>{p.planName}</Td>
              <Td>{p.cycle === "yearly" ? "Yearly" : "Monthly"}</Td>
              <Td>
                <StatusBadge status={p.status} label={p.statusLabel} />
              </Td>
              <Td>{p.nextRenewal ?? "—"}</Td>
            </tr>
          ))}
        </DataTable>
      )}
      <p className="mt-2 text-sm">
        <Link to="/admin/plans" className="text-brand-700 underline">
          All care plans
        </Link>
      </p>
    </Card>
  );
}

/** The client's orders and invoices, each the first page of the back office's lists. */
export function ClientOrdersAndInvoices({
  email,
  orders,
  invoices,
}: {
  email: string;
  orders: Paged<OrderListRow>;
  invoices: Paged<InvoiceListRow>;
}) {
  return (
    <>
      <Card title={`Orders (${orders.total})`}>
        {orders.rows.length === 0 ? (
          <EmptyState title="No orders yet." />
        ) : (
          <DataTable caption="The client's orders" head={["Date", "Service", "Amount", "Status"]}>
            {orders.rows.map((o) => (
              <tr key={o.id}>
                <Td>
                  <Link to={`/admin/orders/${o.id}`} className="text-brand-700 underline">
                    {formatDate(o.createdAt)}
                  </Link>
                </Td>
                <Td>
                  {o.serviceName} · {o.packageName}
                </Td>
                <Td className="tabular-nums">{formatMoney(o.amountInCurrency, o.currency)}</Td>
                <Td>
                  <StatusBadge status={o.status} label={orderStatusLabel(o)} />
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
        {orders.total > orders.rows.length && (
          <p className="mt-2 text-sm">
            <Link to={`/admin/orders?q=${encodeURIComponent(email)}`} className="text-brand-700 underline">
              All of this client's orders
            </Link>
          </p>
        )}
      </Card>
      <Card title={`Invoices (${invoices.total})`}>
        {invoices.rows.length === 0 ? (
          <EmptyState title="No invoices yet." />
        ) : (
          <DataTable caption="The client's invoices" head={["Number", "Total", "Due", "Status"]}>
            {invoices.rows.map((i) => (
              <tr key={i.id}>
                <Td>
                  <Link to={`/admin/invoices/${i.id}`} className="font-mono text-brand-700 underline">
                    {i.invoiceNumber}
                  </Link>
                  <InvoicePartTag kind={i.kind} />
                </Td>
                <Td className="tabular-nums">{formatMoney(i.totalAmount, i.currency)}</Td>
                <Td>{formatDate(i.dueDate)}</Td>
                <Td>
                  <StatusBadge status={i.shownStatus} label={invoiceStatusLabel(i.shownStatus)} />
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
    </>
  );
}

/** "Delete client": DELETE typed and the owner's own password; the form's errors as the action answers them. */
export function DeleteClientCard({ result }: { result?: ActionResult<object, object> | null }) {
  const { alert, fieldErrors } = formErrors(result);
  return (
    <Card title="Delete client">
      <div className="max-w-xl space-y-4">
        <p className="text-sm text-slate-700">
          For a client's request to delete their account: signs the client out everywhere, cancels unpaid
          pending orders and deletes their personal data, keeping the invoices, credit notes and quotes with
          the buyer details frozen on them. Refused while an order is in progress. It cannot be undone.
        </p>
        <Form method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="deleteClient" />
          {alert && <Alert tone="error">{alert}</Alert>}
          <DeleteConfirmField error={fieldErrors.confirm} />
          <PasswordField
            label="Your password"
            name="password"
            autoComplete="current-password"
            hint="Your own password, to confirm it is you"
            required
            error={fieldErrors.password}
          />
          <Button type="submit" variant="danger">
            Delete client
          </Button>
        </Form>
      </div>
    </Card>
  );
}
