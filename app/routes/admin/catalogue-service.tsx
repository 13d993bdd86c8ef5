import { data, Link } from "react-router";
import { CatalogueServiceForm } from "~/features/admin/CatalogueServiceForm";
import { handleCataloguePost } from "~/features/admin/catalogue-actions.server";
import { IntakeQuestionsEditor } from "~/features/admin/IntakeQuestionsEditor";
import { adminCatalogueDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { getService } from "~/features/catalogue/catalogue.server";
import { intakeQuestionsOf } from "~/features/catalogue/intake-questions";
import { pageTitle } from "~/features/site/meta";
import { Page } from "~/ui/page";
import type { Route } from "./+types/catalogue-service";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Edit service · Back Office", matches) },
];

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const service = await getService(context.runtime.database.db, idParam(params.serviceId));
  if (!service) throw new Response("Not Found", { status: 404 });
  return { service, questions: intakeQuestionsOf(service) };
}

/** The service form (no intent: prices, features, name) or `intent=questions` (the intake questions). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const deps = await adminCatalogueDeps(request, context);
  const service = await getService(deps.db, idParam(params.serviceId));
  if (!service) throw new Response("Not Found", { status: 404 });
  const { status, result } = await handleCataloguePost(deps, service, await request.formData());
  return status === 200 ? result : data(result, status);
}

export default function AdminCatalogueService({
  loaderData: { service, questions },
  actionData,
}: Route.ComponentProps) {
  const serviceResult = actionData?.intent === "service" ? actionData : null;
  const questionsResult = actionData?.intent === "questions" && !actionData.ok ? actionData : null;
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
        errors={serviceResult?.errors ?? {}}
        values={serviceResult?.values ?? null}
      />
      <IntakeQuestionsEditor
        questions={questions}
        errors={questionsResult?.fieldErrors ?? {}}
        values={questionsResult?.values ?? null}
      />
    </Page>
  );
}
