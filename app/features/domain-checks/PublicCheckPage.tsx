/**
 * /check (issue 39, item 6): what the free check looks at, the form, and the one-time result (the
 * report, its worst verdict in a sentence, each problem with its fix, and the way to have it watched).
 * A plain form posting to the route's action: it works without JavaScript. With JavaScript, focus moves
 * to the result, or to the field when the name was refused.
 */
import { useEffect, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/ui/button";
import { Container } from "~/ui/container";
import { Alert, TextField } from "~/ui/field";
import { DomainReportView, VerdictBadge } from "./DomainReportView";
import { CHECK_KINDS, CHECK_TITLES, type CheckKind } from "./domain-report";
import type { PublicCheckResult } from "./public-check.server";

const linkClass = "font-semibold text-brand-700 underline";

/** What each check looks at, in plain words (the titles are CHECK_TITLES', as on the report). */
const CHECK_EXPLANATIONS: Record<CheckKind, string> = {
  https:
    "The certificate your website presents: when it expires, whether browsers trust who issued it, whether it is for your domain, and that the connection uses TLS 1.2 or newer.",
  httpsWww: "The same for the www. address of your domain, which many visitors type.",
  mailServers:
    "Your mail servers (MX records) and, for each, whether it offers encryption (STARTTLS) on port 25 with a valid certificate. Many networks block port 25: a server we cannot reach reads “not checked from this network”, not a problem.",
  spf: "Your SPF record, which lists who may send mail for your domain: one record, valid, at most 10 DNS lookups, and not open to everyone (+all).",
  dmarc:
    "Your DMARC policy, which tells receivers what to do with mail forged in your name: whether there is one, how strict it is, and where reports go.",
  dkim: "Your DKIM signing keys under the common selectors of Microsoft 365 (selector1, selector2) and Google Workspace (google).",
  mtaSts:
    "MTA-STS, which makes other servers insist on encryption when they send you mail: the _mta-sts record, the policy file at mta-sts.your-domain, and that it covers every mail server.",
  registration:
    "When your domain's registration expires, as your registry publishes it through RDAP (found through IANA's list of registries).",
};

export function PublicCheckPage({ result }: { result: PublicCheckResult | undefined }) {
  const navigation = useNavigation();
  const checking = navigation.state === "submitting" && navigation.formAction === "/check";
  const resultRef = useRef<HTMLHeadingElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) resultRef.current?.focus();
    else if (result.status === 400)
      formRef.current?.querySelector<HTMLInputElement>("[name=domain]")?.focus();
    else alertRef.current?.focus();
  }, [result]);
  const failed = result && !result.ok ? result : null;

  return (
    <>
      <section className="bg-gradient-to-br from-brand-50 to-white">
        <Container className="py-12">
          <h1 className="text-4xl font-bold tracking-tight">Free domain check</h1>
          <p className="mt-4 max-w-3xl text-lg text-slate-800">
            Type a domain and we check its website certificates, mail security and registration now, the same
            checks our clients' domains get every day.
          </p>
          <p className="mt-3 max-w-3xl text-slate-700">
            The result is shown once, on this page. We keep nothing: no history, no alerts, and the domain is
            not saved.
          </p>
          <Form method="post" action="/check" ref={formRef} noValidate className="mt-6 max-w-xl space-y-4">
            {failed && failed.status !== 400 && (
              <div ref={alertRef} tabIndex={-1}>
                <Alert tone="error">{failed.error}</Alert>
              </div>
            )}
            <TextField
              label="Domain name"
              name="domain"
              required
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              placeholder="example.com"
              defaultValue={result?.domain ?? ""}
              error={failed?.status === 400 ? failed.error : null}
              hint="The registered domain, such as example.com or bücher.de, without www. or https://."
            />
            <Button type="submit" disabled={checking}>
              {checking ? "Checking…" : "Check this domain"}
            </Button>
            {checking && (
              <p role="status" className="text-sm text-slate-700">
                Checking: this takes up to 20 seconds.
              </p>
            )}
          </Form>
        </Container>
      </section>

      {result?.ok && (
        <section aria-labelledby="check-result" className="py-10">
          <Container className="max-w-4xl space-y-6">
            <div>
              <h2 id="check-result" ref={resultRef} tabIndex={-1} className="text-2xl font-bold">
                Result for {result.domain}
              </h2>
              <p className="mt-2 flex flex-wrap items-center gap-2 text-lg text-slate-800">
                <VerdictBadge verdict={result.report.verdict} /> {result.summary}
              </p>
            </div>
            {result.findings.length > 0 && (
              <section aria-labelledby="check-fixes">
                <h3 id="check-fixes" className="text-xl font-bold">
                  What to fix
                </h3>
                <ul className="mt-3 space-y-3">
                  {result.findings.map((f) => (
                    <li key={f.title} className="rounded-lg border border-slate-200 bg-white p-4">
                      <p className="flex flex-wrap items-center gap-2 font-semibold text-ink">
                        <VerdictBadge verdict={f.severity} /> {f.title}
                      </p>
                      <p className="mt-1 text-slate-700">{f.message}</p>
                      <Link to={f.fixHref} className={`mt-2 inline-block ${linkClass}`}>
                        {f.fixLabel}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            <p className="rounded-lg border border-brand-100 bg-brand-50 p-4 text-slate-800">
              Want to hear before something expires? Add {result.domain} to{" "}
              <Link to="/client/domains" className={linkClass}>
                your domains in the client portal
              </Link>{" "}
              and we watch it for you; a{" "}
              <Link to="/plans" className={linkClass}>
                care plan
              </Link>{" "}
              checks it every day and alerts you in time.
            </p>
            <DomainReportView report={result.report} headingLevel={3} />
          </Container>
        </section>
      )}

      <section aria-labelledby="what-we-check" className="bg-slate-50 py-10">
        <Container className="max-w-4xl">
          <h2 id="what-we-check" className="text-2xl font-bold">
            What we check
          </h2>
          <dl className="mt-4 space-y-4">
            {CHECK_KINDS.map((kind) => (
              <div key={kind}>
                <dt className="font-semibold text-ink">
                  {CHECK_TITLES[kind].replace("{domain}", "your domain")}
                </dt>
                <dd className="mt-1 text-slate-700">{CHECK_EXPLANATIONS[kind]}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-6 text-sm text-slate-600">
            Each check has a time limit, and we only connect to public addresses on ports 443 and 25.
          </p>
        </Container>
      </section>
    </>
  );
}
