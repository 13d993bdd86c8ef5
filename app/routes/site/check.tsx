/**
 * Not in the spec (issue 39, item 6): the free public domain check. GET explains it and shows the form;
 * POST (a plain form, with or without JavaScript) runs one check and shows it once, storing nothing.
 */
import { PublicCheckPage } from "~/features/domain-checks/PublicCheckPage";
import { publicCheckDepsOf, runPublicCheck } from "~/features/domain-checks/public-check.server";
import { seo } from "~/features/site/seo";
import { actionResponse } from "~/ui/form";
import type { Route } from "./+types/check";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: "Free Domain Check: SSL Certificates, SPF, DMARC, DKIM and Expiry",
    description:
      "Check a domain's website certificates, mail servers and STARTTLS, SPF, DMARC, DKIM, MTA-STS and registration expiry for free. Shown once, nothing kept.",
    path: "/check",
    matches,
  });

/** A check's answer is never cached, and a 429 says when to come back (also on a plain form's page). */
export const headers: Route.HeadersFunction = ({ actionHeaders }) => actionHeaders;

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await runPublicCheck(publicCheckDepsOf(context), form, {
    ip: context.clientIp,
    signal: request.signal,
  });
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (!result.ok && result.retryAfterSeconds) headers["Retry-After"] = String(result.retryAfterSeconds);
  return actionResponse(result, headers);
}

export default function Check({ actionData }: Route.ComponentProps) {
  return <PublicCheckPage result={actionData} />;
}
