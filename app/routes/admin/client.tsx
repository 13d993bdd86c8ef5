import { Link, redirect } from "react-router";
import { ClientCarePlans, ClientOrdersAndInvoices, DeleteClientCard } from "~/features/admin/AdminClientView";
import { clientPageAction, getClientPage } from "~/features/admin/client-pages.server";
import { requireAdmin, userIdParam } from "~/features/admin/route-helpers.server";
import { DefinitionList } from "~/features/admin/ui";
import { NET_PAID_LABEL } from "~/features/invoices/money-totals";
import { deletionDeps } from "~/features/privacy/deletion-deps.server";
import { pageTitle } from "~/features/site/meta";
import { vatWords } from "~/features/tax/treatment";
import { StatusBadge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Alert } from "~/ui/field";
import { actionResponse, formValues } from "~/ui/form";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import type { Route } from "./+types/client";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Client · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const id = userIdParam(params.clientId);
  const page = await getClientPage(context.runtime.database.db, id, new Date());
  if (!page) throw new Response("Not Found", { status: 404 });
  return { ...page, deleted: new URL(request.url).searchParams.get("deleted") === "1" };
}

/**
 * "Delete client" (issue 25, for a request by email): DELETE typed and the owner's own password; the
 * client's rules (an order in progress refuses it; never an admin's account); audited with the owner.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context);
  const id = userIdParam(params.clientId);
  const values = formValues(await request.formData());
  const result = await clientPageAction(deletionDeps(context), request, admin, id, values);
  if (result.ok) throw redirect(result.redirectTo);
  return actionResponse(result);
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
                <StatusBadge status={u.emailVerified ? "verified" : "unverified"} />{" "}
                {c?.emailVerifiedAt ? formatDateTime(c.emailVerifiedAt) : ""}
              </span>,
            ],
            ["Phone", c?.phone ?? "—"],
            ["Company", c?.company ?? "—"],
            // The VAT number and what the EU's VIES service said of it, with its proof (issue 40).
            ["VAT/Tax ID", c ? vatWords(c) : "—"],
            ["Joined", formatDateTime(u.createdAt)],
            // The one money truth (invoices/money-totals.ts), in USD: the client's pages show the same.
            ["Invoiced", d.figures.invoiced],
            ["Paid", d.figures.paid],
            ["Refunded", d.figures.refunded],
            [NET_PAID_LABEL, d.figures.netPaid],
            ["Outstanding", d.figures.outstanding],
          ]}
        />
      </Card>
      <ClientCarePlans plans={d.plans} />
      <ClientOrdersAndInvoices email={u.email} orders={d.orders} invoices={d.invoices} />
      {!deletedAt && <DeleteClientCard result={actionData} />}
    </Page>
  );
}
