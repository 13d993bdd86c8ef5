import { data, Form, Link, redirect } from "react-router";
import { accountDeps } from "~/features/accounts/deps.server";
import { getClientDetail } from "~/features/admin/clients.server";
import { listInvoices } from "~/features/admin/invoices.server";
import { listOrders } from "~/features/admin/orders.server";
import { requireAdmin, userIdParam } from "~/features/admin/route-helpers.server";
import { DefinitionList } from "~/features/admin/ui";
import { formatMoney } from "~/features/currency/currency";
import { expireCheckouts } from "~/features/payments/provider.server";
import { deleteClientByOwner } from "~/features/privacy/account-deletion.server";
import { DeleteConfirmField } from "~/features/privacy/DeleteConfirmField";
import { invoiceDisplayStatus } from "~/features/refunds/refund-math";
import { pageTitle } from "~/features/site/meta";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Alert, PasswordField } from "~/ui/field";
import { formValues } from "~/ui/form";
import { formatDate, formatDateTime } from "~/ui/format";
import { EmptyState } from "~/ui/list";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import type { Route } from "./+types/client";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Client · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = userIdParam(params.clientId);
  const db = context.runtime.database.db;
  const detail = await getClientDetail(db, id);
  if (!detail) throw new Response("Not Found", { status: 404 });
  const [orders, invoices] = await Promise.all([
    listOrders(db, { q: "", status: null, clientId: id, page: 1 }),
    listInvoices(db, { q: "", filter: "all", clientId: id, page: 1 }),
  ]);
  const deleted = new URL(request.url).searchParams.get("deleted") === "1";
  return { ...detail, orders, invoices, deleted };
}

/**
 * "Delete client" (issue 25, for a request by email): DELETE typed and the owner's own password; the
 * client's rules (an order in progress refuses it; never an admin's account); audited with the owner.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const id = userIdParam(params.clientId);
  const values = formValues(await request.formData());
  if (values.intent !== "deleteClient") {
    return data({ error: "Unknown action.", fieldErrors: {} as Record<string, string> }, { status: 400 });
  }
  const deps = { ...accountDeps(context), config: context.runtime.config };
  const result = await deleteClientByOwner(deps, request, admin, id, values);
  if (!result.ok)
    return data({ error: result.error, fieldErrors: result.fieldErrors }, { status: result.status });
  context.runtime.outbox.wake();
  void expireCheckouts(context.runtime.payments, context.runtime.logger, result.checkouts);
  throw redirect(`/admin/clients/${encodeURIComponent(id)}?deleted=1`);
}

export default function AdminClient({ loaderData: d, actionData }: Route.ComponentProps) {
  const { user: u, client: c } = d;
  const deletedAt = c?.deletedAt ?? null;
  return (
    <Page
      title={c?.name ?? u.name}
      actions={
        <div className="flex items-center gap-4">
          {/* Issue 25: the client's data export, for a request by email (a download; audited). */}
          {!deletedAt && (
            <form method="post" action={`/admin/clients/${encodeURIComponent(u.id)}/export`}>
              <Button type="submit" variant="secondary">
                Export client data
              </Button>
            </form>
          )}
          <Link to="/admin/clients" className="text-brand-700 underline">
            All clients
          </Link>
        </div>
      }
    >
      {deletedAt && (
        <Alert tone={d.deleted ? "success" : "info"}>
          {d.deleted ? "The client's account has been deleted. " : ""}
          Account deleted on {formatDateTime(deletedAt)}: only the orders, invoices and credit notes the law
          asks us to keep remain, with the buyer details frozen on them.
        </Alert>
      )}
      <Card title="Client">
        <DefinitionList
          items={[
            ["Email", u.email],
            [
              "Email verification",
              <span key="v">
                <StatusBadge status={u.emailVerified ? "verified" : "unverified"} plain />{" "}
                {c?.emailVerifiedAt ? formatDateTime(c.emailVerifiedAt) : ""}
              </span>,
            ],
            ["Phone", c?.phone ?? "—"],
            ["Company", c?.company ?? "—"],
            ["Joined", formatDateTime(u.createdAt)],
            ["Paid in total", formatMoney(d.figures.spentUsd, "USD")],
            ["Outstanding", formatMoney(d.figures.outstandingUsd, "USD")],
          ]}
        />
      </Card>
      <Card title={`Orders (${d.orders.total})`}>
        {d.orders.rows.length === 0 ? (
          <EmptyState title="No orders yet." />
        ) : (
          <DataTable caption="The client's orders" head={["Date", "Service", "Amount", "Status"]}>
            {d.orders.rows.map((o) => (
              <tr key={o.id}>
                <Td>
                  <Link to={`/admin/orders/${o.id}`} className="text-brand-700 underline">
                    {formatDate(o.createdAt, "iso")}
                  </Link>
                </Td>
                <Td>
                  {o.serviceName} · {o.packageName}
                </Td>
                <Td className="tabular-nums">{formatMoney(o.amountInCurrency, o.currency)}</Td>
                <Td>
                  <StatusBadge status={o.status} plain />
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
        {d.orders.total > d.orders.rows.length && (
          <p className="mt-2 text-sm">
            <Link to={`/admin/orders?q=${encodeURIComponent(u.email)}`} className="text-brand-700 underline">
              All of this client's orders
            </Link>
          </p>
        )}
      </Card>
      <Card title={`Invoices (${d.invoices.total})`}>
        {d.invoices.rows.length === 0 ? (
          <EmptyState title="No invoices yet." />
        ) : (
          <DataTable caption="The client's invoices" head={["Number", "Total", "Due", "Status"]}>
            {d.invoices.rows.map((i) => (
              <tr key={i.id}>
                <Td>
                  <Link to={`/admin/invoices/${i.id}`} className="font-mono text-brand-700 underline">
                    {i.invoiceNumber}
                  </Link>
                </Td>
                <Td className="tabular-nums">{formatMoney(i.totalAmount, i.currency)}</Td>
                <Td>{formatDate(i.dueDate, "iso")}</Td>
                <Td>
                  <StatusBadge
                    status={
                      i.overdue
                        ? "overdue"
                        : invoiceDisplayStatus(i.status, i.totalAmount, i.refundedAmount, i.currency)
                    }
                    plain
                  />
                </Td>
              </tr>
            ))}
          </DataTable>
        )}
      </Card>
      {!deletedAt && (
        <Card title="Delete client">
          <div className="max-w-xl space-y-4">
            <p className="text-sm text-slate-700">
              For a client's request to delete their account: signs the client out everywhere, cancels unpaid
              pending orders and deletes their personal data, keeping the invoices, credit notes and quotes
              with the buyer details frozen on them. Refused while an order is in progress. It cannot be
              undone.
            </p>
            <Form method="post" className="space-y-4" noValidate>
              <input type="hidden" name="intent" value="deleteClient" />
              {actionData?.error && <Alert tone="error">{actionData.error}</Alert>}
              <DeleteConfirmField error={actionData?.fieldErrors.confirm} />
              <PasswordField
                label="Your password"
                name="password"
                autoComplete="current-password"
                hint="Your own password, to confirm it is you"
                required
                error={actionData?.fieldErrors.password}
              />
              <Button type="submit" variant="danger">
                Delete client
              </Button>
            </Form>
          </div>
        </Card>
      )}
    </Page>
  );
}
