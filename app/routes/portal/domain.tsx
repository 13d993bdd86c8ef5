import { data, redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { ClientDomainPage } from "~/features/domain-checks/ClientDomainPage";
import {
  clientDomainPage,
  DOMAIN_NOT_FOUND,
  removeDomain,
  updateDomain,
  updateDomainForm,
} from "~/features/domain-checks/client-domains.server";
import { isUuid } from "~/features/ids/ids";
import { pageTitle } from "~/features/site/meta";
import { actionResponse, parseForm } from "~/ui/form";
import type { Route } from "./+types/domain";

export const meta: Route.MetaFunction = ({ data: page, matches }) => [
  { title: pageTitle(page && "domain" in page && page.domain ? page.domain.name : "Domain", matches) },
];

/** Not in the spec (issue 39): one of the client's watched domains. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const domain = isUuid(params.domainId)
    ? await clientDomainPage(context.runtime.database.db, user.id, params.domainId)
    : null;
  if (!domain) throw data(DOMAIN_NOT_FOUND, { status: 404 });
  return { domain };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  if (!isUuid(params.domainId)) return actionResponse({ ok: false, status: 404, error: DOMAIN_NOT_FOUND });
  const db = context.runtime.database.db;
  const form = Object.fromEntries(await request.formData());
  if (form.intent === "remove") {
    const removed = await removeDomain(db, user.id, params.domainId);
    if (removed.ok) throw redirect("/client/domains");
    return actionResponse(removed);
  }
  const parsed = parseForm(updateDomainForm, form);
  if (!parsed.ok) return actionResponse(parsed);
  return actionResponse(await updateDomain(db, user.id, params.domainId, parsed.data));
}

export default function Domain({ loaderData, actionData }: Route.ComponentProps) {
  return <ClientDomainPage domain={loaderData.domain} result={actionData ?? null} />;
}
