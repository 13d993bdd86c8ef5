/**
 * A report in plain lines (the CLI prints them; an email or a log could too). Pure.
 */
import { CHECK_KINDS, CHECK_TITLES, type DomainReport } from "./domain-report";
import type { Verdict } from "./report";

export const VERDICT_WORDS: Record<Verdict, string> = {
  ok: "ok",
  warning: "warning",
  problem: "PROBLEM",
  "not-checked": "not checked",
};

const TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

export function checkTitle(kind: (typeof CHECK_KINDS)[number], domain: string): string {
  return CHECK_TITLES[kind].replace("{domain}", domain);
}

export function reportLines(report: DomainReport): string[] {
  const { ascii, unicode } = report.domain;
  const name = unicode === ascii ? ascii : `${unicode} (${ascii})`;
  const lines = [
    `${name}: ${VERDICT_WORDS[report.verdict]}, checked ${TIME.format(new Date(report.checkedAt))} UTC`,
  ];
  const width = Math.max(...Object.values(VERDICT_WORDS).map((w) => w.length));
  for (const kind of CHECK_KINDS) {
    const check = report.checks[kind];
    lines.push(
      `  ${VERDICT_WORDS[check.verdict].padEnd(width)}  ${checkTitle(kind, unicode)}: ${check.reason}`,
    );
  }
  return lines;
}
