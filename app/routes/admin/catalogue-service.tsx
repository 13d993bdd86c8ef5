import { data, Link } from "react-router";
import { CatalogueServiceForm } from "~/features/admin/CatalogueServiceForm";
import { getCatalogueService, updateCatalogueService } from "~/features/admin/catalogue.server";
import { parseCatalogueForm } from "~/features/admin/catalogue-form";
import { adminDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { pageTitle } from "~/features/site/meta";
import { Page } from "~/ui/page";
import type { Route } from "./+types/catalogue-service";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Edit service · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const service = await getCatalogueService(context.runtime.database.db, idParam(params.serviceId));
  if (!service) throw new Response("Not Found", { status: 404 });
  return { service };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminDeps(request, context);
  const id = idParam(params.serviceId);
  const service = await getCatalogueService(deps.db, id);
  if (!service) throw new Response("Not Found", { status: 404 });
  const form = await request.formData();
  const parsed = parseCatalogueForm(form, service.packageOrder);
  if (!parsed.ok) {
    const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
    return data(
      { ok: false as const, error: "Please correct the highlighted fields.", errors: parsed.errors, values },
      400,
    );
  }
  const result = await updateCatalogueService(deps, id, parsed.value);
  if (!result.ok)
    return data({ ...result, errors: {} as Record<string, string>, values: null }, result.status);
  return { ...result, errors: {} as Record<string, string>, values: null };
}

export default function AdminCatalogueService({ loaderData: { service }, actionData }: Route.ComponentProps) {
  return (
    <Page
      title={`Edit ${service.name}`}
      actions={
        <Link to="/admin/catalogue" className="text-brand-700 underline">
          Catalogue
        </Link>
      }
    >
      <Outcome result={actionData} />
      <CatalogueServiceForm
        service={service}
        errors={actionData?.errors ?? {}}
        values={actionData?.values ?? null}
      />
    </Page>
  );
}
