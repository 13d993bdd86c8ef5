import { Link } from "react-router";
import { CatalogueServiceForm } from "~/features/admin/CatalogueServiceForm";
import { handleCataloguePost } from "~/features/admin/catalogue-actions.server";
import { IntakeQuestionsEditor } from "~/features/admin/IntakeQuestionsEditor";
import { adminCatalogueDeps, idParam, requireAdmin } from "~/features/admin/route-helpers.server";
import { Outcome } from "~/features/admin/ui";
import { getService } from "~/features/catalogue/catalogue.server";
import { intakeQuestionsOf } from "~/features/catalogue/intake-questions";
import { pageTitle } from "~/features/site/meta";
import { actionResponse, failureOf, formErrors } from "~/ui/form";
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
  return actionResponse(await handleCataloguePost(deps, service, await request.formData()));
}

export default function AdminCatalogueService({
  loaderData: { service, questions },
  actionData,
}: Route.ComponentProps) {
  const serviceFailure = actionData?.intent === "service" ? failureOf(actionData) : null;
  const questionsFailure = actionData?.intent === "questions" ? failureOf(actionData) : null;
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
        errors={formErrors(serviceFailure).fieldErrors}
        values={serviceFailure?.values ?? null}
      />
      <IntakeQuestionsEditor
        questions={questions}
        errors={formErrors(questionsFailure).fieldErrors}
        values={questionsFailure?.values ?? null}
      />
    </Page>
  );
}
