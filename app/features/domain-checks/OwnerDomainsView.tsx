/**
 * /admin/domains (issue 39, item 5): every client's watched domains, the most urgent first, with a
 * filter by open alert, a search, the last check and a "check now" per domain.
 */
import { Form, Link } from "react-router";
import { Button } from "~/ui/button";
import { Alert, inputClass } from "~/ui/field";
import { formatDateTime } from "~/ui/format";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import { VerdictBadge } from "./DomainReportView";
import { DOMAIN_PROBLEM_FILTERS, type DomainProblemFilter } from "./domain-filters";
import type { OwnerDomainRow } from "./owner-domains.server";
import type { Verdict } from "./report";

function daysWords(days: number | null): string {
  if (days === null) return "—";
  if (days < 0) return `Expired ${-days} ${days === -1 ? "day" : "days"} ago`;
  return `${days} ${days === 1 ? "day" : "days"}`;
}

export function OwnerDomainsView({
  rows,
  capped,
  q,
  problem,
  result,
}: {
  rows: OwnerDomainRow[];
  capped: boolean;
  q: string;
  problem: DomainProblemFilter | null;
  result: { ok: boolean; message?: string; error?: string } | null;
}) {
  return (
    <Page title="Domains">
      <p className="max-w-3xl text-slate-700">
        Every client's watched domains, the most urgent first: expired, then the fewest days left on a
        certificate or registration, then the worst result.
      </p>
      {result?.ok && result.message && <Alert tone="success">{result.message}</Alert>}
      {result && !result.ok && <Alert tone="error">{result.error}</Alert>}
      <Form method="get" className="flex flex-wrap items-end gap-3" role="search" aria-label="Filter domains">
        <div>
          <label htmlFor="domains-q" className="block text-sm font-medium text-slate-800">
            Domain or client
          </label>
          <input
            id="domains-q"
            name="q"
            type="search"
            defaultValue={q}
            className={`${inputClass} mt-1 border-slate-300`}
          />
        </div>
        <div>
          <label htmlFor="domains-problem" className="block text-sm font-medium text-slate-800">
            Open alert
          </label>
          <select
            id="domains-problem"
            name="problem"
            defaultValue={problem ?? ""}
            className={`${inputClass} mt-1 border-slate-300`}
          >
            <option value="">All domains</option>
            {Object.entries(DOMAIN_PROBLEM_FILTERS).map(([key, label]) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
      </Form>
      {rows.length === 0 ? (
        <p className="text-slate-700">No domains match.</p>
      ) : (
        <DataTable
          caption="Watched domains, most urgent first"
          head={["Domain", "Client", "Days left", "Result", "Open alerts", "Last check", "Check"]}
        >
          {rows.map((r) => (
            <tr key={r.id} data-domain={r.name}>
              <Td className="break-words font-medium">{r.name}</Td>
              <Td>
                <Link to={`/admin/clients/${r.clientId}`} className="text-brand-700 underline">
                  {r.clientName}
                </Link>
              </Td>
              <Td className="whitespace-nowrap">{daysWords(r.daysLeft)}</Td>
              <Td>{r.verdict ? <VerdictBadge verdict={r.verdict as Verdict} /> : "Not yet"}</Td>
              <Td>{r.alerts.length ? r.alerts.join("; ") : "None"}</Td>
              <Td className="whitespace-nowrap">
                {r.lastCheckedAt ? formatDateTime(r.lastCheckedAt) : "Not yet"}
              </Td>
              <Td>
                <Form method="post">
                  <input type="hidden" name="domainId" value={r.id} />
                  <Button type="submit" variant="secondary" aria-label={`Check ${r.name} now`}>
                    Check now
                  </Button>
                </Form>
              </Td>
            </tr>
          ))}
        </DataTable>
      )}
      {capped && (
        <p className="text-sm text-slate-600">
          Showing the 200 most urgent: search or filter to find others.
        </p>
      )}
    </Page>
  );
}
