/**
 * /client/domains (issue 39, item 1): the client's watched domains with their state (daily, weekly or
 * paused, and why), last check and open alerts, and the form that adds one. Works without JavaScript.
 */
import { Form, Link } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Alert, TextField } from "~/ui/field";
import { formatMoment } from "~/ui/format";
import { Page } from "~/ui/page";
import { DataTable, Td } from "~/ui/table";
import { useTimeZone } from "~/ui/time-zone";
import type { DomainListItem } from "./client-domains.server";
import { VerdictBadge } from "./DomainReportView";
import type { Verdict } from "./report";
import type { WatchAllowance } from "./watch-rules";

const linkClass = "font-medium text-brand-700 underline";

export function allowanceWords(allowance: WatchAllowance): string {
  if (!allowance.planName) {
    return "Without a care plan we check your first domain once a week. A care plan checks more domains every day.";
  }
  const n = allowance.domains;
  return `Your ${allowance.planName} plan checks ${n} ${n === 1 ? "domain" : "domains"} every day.`;
}

export function ClientDomainsPage({
  items,
  allowance,
  limit,
  result,
}: {
  items: DomainListItem[];
  allowance: WatchAllowance;
  limit: number;
  result: {
    ok: boolean;
    error?: string;
    message?: string;
    fieldErrors?: Record<string, string | undefined>;
  } | null;
}) {
  const timeZone = useTimeZone();
  const failed = result && !result.ok ? result : null;
  return (
    <Page title="Domains">
      <p className="max-w-3xl text-slate-700">
        We check your domains' website certificates, mail servers, SPF, DMARC, DKIM, MTA-STS and registration,
        and tell you before something expires or breaks. {allowanceWords(allowance)}{" "}
        {!allowance.planName && (
          <Link to="/plans" className={linkClass}>
            Compare the care plans
          </Link>
        )}
      </p>
      {result?.ok && result.message && <Alert tone="success">{result.message}</Alert>}
      <Card title="Add a domain">
        <Form method="post" className="grid max-w-2xl gap-4" noValidate>
          <input type="hidden" name="intent" value="add" />
          <TextField
            label="Domain name"
            name="name"
            required
            autoComplete="off"
            spellCheck={false}
            placeholder="example.com"
            error={failed?.fieldErrors?.name ?? (failed && !failed.fieldErrors ? failed.error : null)}
            hint="The registered domain, such as example.com or bücher.de, without www."
          />
          <TextField
            label="DKIM selectors (optional)"
            name="selectors"
            autoComplete="off"
            spellCheck={false}
            error={failed?.fieldErrors?.selectors}
            hint="Comma separated, if your mail provider gave you any. We also try Microsoft 365's and Google Workspace's."
          />
          <div>
            <Button type="submit">Add domain</Button>
          </div>
        </Form>
      </Card>
      {items.length === 0 ? (
        <Card title="No domains yet">
          <p className="text-slate-700">
            Add your first domain above: its first check runs within a few minutes.
          </p>
        </Card>
      ) : (
        <DataTable
          caption={`Your domains (${items.length} of at most ${limit})`}
          head={["Domain", "Watch", "Last check", "Result", "Open alerts"]}
        >
          {items.map((d) => (
            <tr key={d.id}>
              <Td>
                <Link to={`/client/domains/${d.id}`} className={`${linkClass} break-words`}>
                  {d.name}
                </Link>
              </Td>
              <Td>{d.stateWords}</Td>
              <Td className="whitespace-nowrap">
                {d.lastCheckedAt ? formatMoment(d.lastCheckedAt, timeZone) : "Not yet"}
              </Td>
              <Td>{d.verdict ? <VerdictBadge verdict={d.verdict as Verdict} /> : "—"}</Td>
              <Td>{d.openAlerts}</Td>
            </tr>
          ))}
        </DataTable>
      )}
    </Page>
  );
}
