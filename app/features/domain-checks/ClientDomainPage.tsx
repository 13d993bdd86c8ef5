/**
 * /client/domains/{id} (issue 39, items 1, 3 and 4): one watched domain: its state, its open alerts each
 * with its fix one click away, the latest report, the alerts that cleared, its history, and its settings
 * (DKIM selectors, an expiry typed for a registry without RDAP) and removal.
 */
import { Form, Link } from "react-router";
import { Button, ButtonLink } from "~/ui/button";
import { Card } from "~/ui/card";
import { Alert, TextField } from "~/ui/field";
import { formatMoment } from "~/ui/format";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import { useTimeZone } from "~/ui/time-zone";
import type { AlertView } from "./client-domains.server";
import { DomainReportView, VerdictBadge } from "./DomainReportView";
import type { DomainReport } from "./domain-report";
import { alertFixHref, FIX_LABELS } from "./fixes";
import type { Verdict } from "./report";

export interface ClientDomainPageData {
  id: string;
  name: string;
  stateWords: string;
  selectors: string[];
  typedExpiry: string | null;
  lastCheckedAt: string | null;
  nextCheckAt: string | null;
  report: DomainReport | null;
  openAlerts: AlertView[];
  pastAlerts: AlertView[];
  history: Array<{ id: string; checkedAt: string; verdict: string; trigger: string }>;
}

type Result = {
  ok: boolean;
  error?: string;
  message?: string;
  fieldErrors?: Record<string, string | undefined>;
};

export function OpenAlerts({ alerts, fixes = true }: { alerts: AlertView[]; fixes?: boolean }) {
  const timeZone = useTimeZone();
  if (alerts.length === 0) return <p className="text-slate-700">No open alerts.</p>;
  return (
    <ul className="space-y-4">
      {alerts.map((a) => (
        <li
          key={a.id}
          data-alert-id={a.id}
          className={`rounded-lg border-l-4 bg-white p-4 ${a.severity === "problem" ? "border-red-600" : "border-amber-500"}`}
        >
          <p className="font-semibold text-ink">{a.title}</p>
          <p className="mt-1 text-slate-700">{a.message}</p>
          <p className="mt-1 text-sm text-slate-600">Raised {formatMoment(a.raisedAt, timeZone)}</p>
          {fixes && (
            <p className="mt-3">
              <ButtonLink to={alertFixHref(a.fix, a.id)}>{FIX_LABELS[a.fix]}</ButtonLink>
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

export function ClientDomainPage({
  domain,
  result,
}: {
  domain: ClientDomainPageData;
  result: Result | null;
}) {
  const timeZone = useTimeZone();
  const failed = result && !result.ok ? result : null;
  return (
    <Page title={domain.name}>
      <p className="text-slate-700">
        <Link to="/client/domains" className="font-medium text-brand-700 underline">
          All domains
        </Link>
      </p>
      {result?.ok && result.message && <Alert tone="success">{result.message}</Alert>}
      {failed && !failed.fieldErrors && <Alert tone="error">{failed.error}</Alert>}
      <Card title="Watch" aria-label="Watch">
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
          <div>
            <dt className="text-slate-600">Schedule</dt>
            <dd>{domain.stateWords}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Last check</dt>
            <dd>{domain.lastCheckedAt ? formatMoment(domain.lastCheckedAt, timeZone) : "Not yet"}</dd>
          </div>
          <div>
            <dt className="text-slate-600">Next check</dt>
            <dd>{domain.nextCheckAt ? formatMoment(domain.nextCheckAt, timeZone) : "Paused"}</dd>
          </div>
        </dl>
      </Card>
      <Card title="Open alerts" aria-label="Open alerts">
        <OpenAlerts alerts={domain.openAlerts} />
      </Card>
      <Card title="Latest results" aria-label="Latest results">
        {domain.report ? (
          <DomainReportView report={domain.report} />
        ) : (
          <p className="text-slate-700">
            The first check has not run yet: it runs within a few minutes of adding.
          </p>
        )}
      </Card>
      {domain.pastAlerts.length > 0 && (
        <Card title="Resolved alerts" aria-label="Resolved alerts">
          <ul className="space-y-2">
            {domain.pastAlerts.map((a) => (
              <li key={a.id}>
                <span className="font-medium">{a.title}</span>: {a.clearedNote}{" "}
                <span className="text-sm text-slate-600">({formatMoment(a.clearedAt, timeZone)})</span>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {domain.history.length > 0 && (
        <DataTable caption={`History of ${domain.name}`} head={["Checked", "Result", "By"]}>
          {domain.history.map((h) => (
            <tr key={h.id}>
              <Td className="whitespace-nowrap">{formatMoment(h.checkedAt, timeZone)}</Td>
              <Td>
                <VerdictBadge verdict={h.verdict as Verdict} />
              </Td>
              <Td>{h.trigger === "schedule" ? "Schedule" : h.trigger === "owner" ? "Our team" : "You"}</Td>
            </tr>
          ))}
        </DataTable>
      )}
      <Card title="Settings" aria-label="Settings">
        <Form method="post" className="grid max-w-2xl gap-4" noValidate>
          <input type="hidden" name="intent" value="update" />
          <TextField
            label="DKIM selectors"
            name="selectors"
            defaultValue={domain.selectors.join(", ")}
            autoComplete="off"
            spellCheck={false}
            error={failed?.fieldErrors?.selectors}
            hint="Comma separated. We also try Microsoft 365's (selector1, selector2) and Google Workspace's (google)."
          />
          <TextField
            label="Registration expiry (only if we cannot read it)"
            name="expiry"
            type="date"
            defaultValue={domain.typedExpiry ?? ""}
            error={failed?.fieldErrors?.expiry}
            hint="Some registries publish no expiry date (no RDAP service): type it from your registrar's invoice."
          />
          <div>
            <Button type="submit">Save</Button>
          </div>
        </Form>
        <Form method="post" className="mt-6 border-t border-slate-200 pt-4">
          <input type="hidden" name="intent" value="remove" />
          <Button type="submit" variant="secondary">
            Stop watching {domain.name}
          </Button>
        </Form>
      </Card>
    </Page>
  );
}
