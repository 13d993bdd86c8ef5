/**
 * One domain's report as a list of its eight checks, each with its verdict in words and its reason
 * (issue 39, item 2). The client's domain page, the owner's and the free check show it the same way.
 */
import { Badge, type BadgeTone } from "~/ui/badge";
import { CHECK_KINDS, CHECK_TITLES, type DomainReport } from "./domain-report";
import type { Verdict } from "./report";

export const VERDICT_WORDS: Record<Verdict, string> = {
  ok: "OK",
  warning: "Warning",
  problem: "Problem",
  "not-checked": "Not checked",
};

export const VERDICT_TONES: Record<Verdict, BadgeTone> = {
  ok: "success",
  warning: "warning",
  problem: "danger",
  "not-checked": "muted",
};

export function VerdictBadge({ verdict }: { verdict: Verdict }) {
  return <Badge tone={VERDICT_TONES[verdict]}>{VERDICT_WORDS[verdict]}</Badge>;
}

export function DomainReportView({
  report,
  headingLevel = 3,
}: {
  report: DomainReport;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <ul className="divide-y divide-slate-200" aria-label={`Checks of ${report.domain.unicode}`}>
      {CHECK_KINDS.map((kind) => {
        const check = report.checks[kind];
        return (
          <li key={kind} className="py-3" data-check={kind}>
            <div className="flex flex-wrap items-center gap-2">
              <Heading className="font-semibold text-ink">
                {CHECK_TITLES[kind].replace("{domain}", report.domain.unicode)}
              </Heading>
              <VerdictBadge verdict={check.verdict} />
            </div>
            <p className="mt-1 break-words text-slate-700">{check.reason}</p>
          </li>
        );
      })}
    </ul>
  );
}
