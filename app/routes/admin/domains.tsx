/**
 * The back office's domain watch (issue 39, item 5; ADR 0541): every client's domains by urgency, a
 * filter by open alert (`problem`) and a search (`q`), and "check now" per domain (POST `domainId`).
 */
import { requireAdmin } from "~/features/admin/route-helpers.server";
import { problemFilterOf } from "~/features/domain-checks/domain-filters";
import { OwnerDomainsView } from "~/features/domain-checks/OwnerDomainsView";
import { checkNowForm, ownerCheckNow, ownerDomainList } from "~/features/domain-checks/owner-domains.server";
import { domainWatchDepsOf } from "~/features/domain-checks/watch.server";
import { pageTitle } from "~/features/site/meta";
import { actionResponse, parseForm } from "~/ui/form";
import type { Route } from "./+types/domains";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: pageTitle("Domains · Back Office", matches) },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const problem = problemFilterOf(url.searchParams.get("problem"));
  const list = await ownerDomainList(context.runtime.database.db, { q, problem });
  return { ...list, q, problem };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context);
  const parsed = parseForm(checkNowForm, Object.fromEntries(await request.formData()));
  if (!parsed.ok) return actionResponse(parsed);
  const result = await ownerCheckNow(domainWatchDepsOf(context), parsed.data.domainId, new Date());
  // The report is shown on the list's row; the page needs only the sentence.
  return actionResponse(result.ok ? { ok: true, message: result.message } : result);
}

export default function AdminDomains({ loaderData: d, actionData }: Route.ComponentProps) {
  return (
    <OwnerDomainsView
      rows={d.rows}
      capped={d.capped}
      q={d.q}
      problem={d.problem}
      result={actionData ?? null}
    />
  );
}
