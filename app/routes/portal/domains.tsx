import { redirect } from "react-router";
import { requireClient } from "~/features/accounts/session.server";
import { ClientDomainsPage } from "~/features/domain-checks/ClientDomainsPage";
import { addDomain, addDomainForm, clientDomainList } from "~/features/domain-checks/client-domains.server";
import { pageTitle } from "~/features/site/meta";
import { actionResponse, parseForm } from "~/ui/form";
import type { Route } from "./+types/domains";

export const meta: Route.MetaFunction = ({ matches }) => [{ title: pageTitle("Domains", matches) }];

/** Not in the spec (issue 39): the client's watched domains, and adding one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { user } = await requireClient(request, context);
  const list = await clientDomainList(context.runtime.database.db, user.id);
  const added = new URL(request.url).searchParams.get("added");
  const name = added ? list.items.find((d) => d.id === added)?.name : null;
  return { ...list, added: name ? `${name} added. Its first check runs within a few minutes.` : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { user } = await requireClient(request, context);
  const form = Object.fromEntries(await request.formData());
  const parsed = parseForm(addDomainForm, form);
  if (!parsed.ok) return actionResponse(parsed);
  const added = await addDomain(context.runtime.database.db, user.id, parsed.data, new Date());
  if (added.ok) throw redirect(`/client/domains?added=${added.domainId}`);
  return actionResponse(added);
}

export default function Domains({ loaderData, actionData }: Route.ComponentProps) {
  const result = actionData ?? (loaderData.added ? { ok: true, message: loaderData.added } : null);
  return (
    <ClientDomainsPage
      items={loaderData.items}
      allowance={loaderData.allowance}
      limit={loaderData.limit}
      result={result}
    />
  );
}
