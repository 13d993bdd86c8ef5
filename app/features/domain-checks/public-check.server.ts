/**
 * The free check on the public site (issue 39, item 6): a visitor names a domain and gets the same
 * report a client's watched domain gets, once. Nothing is stored: no watched domain, no history, no
 * alert; the only rows written are the rate limits' counters (keyed by address, never by domain).
 *
 * Order of the steps: the name is validated first (a refused name costs nothing but the parse, so a
 * typo does not use up a visitor's checks), then the per-address limit is counted, then the site-wide
 * one (counted last, so an address already refused does not use up everyone's hour), then a few checks
 * at a time per process run; the check itself stops when the visitor goes away (the request's signal).
 */
import type { AppLoadContext } from "react-router";
import { z } from "zod";
import type { Database } from "~/db/client.server";
import { rateLimitAddress } from "~/features/rate-limit/address";
import { consumeRateLimit } from "~/features/rate-limit/rate-limit.server";
import type { ActionFailure, ActionSuccess } from "~/ui/form";
import { fieldErrors, formValues } from "~/ui/form";
import { readAlerts } from "./alerts";
import { checkDomain, type DomainCheckDeps } from "./check-domain.server";
import type { DomainReport } from "./domain-report";
import { FIX_LABELS, publicFixHref } from "./fixes";
import { domainNameSchema } from "./names";
import type { Verdict } from "./report";

/** Checks one address may run in an hour (an IPv6 address counts by its /64). */
export const PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR = 5;
/** Checks the whole site runs for visitors in an hour. */
export const PUBLIC_CHECKS_PER_SITE_PER_HOUR = 100;
/** Checks running at once in one process (each opens a few dozen queries and connections for up to 20 s). */
export const PUBLIC_CHECKS_AT_ONCE = 4;
const HOUR_MS = 60 * 60 * 1000;

export const PUBLIC_CHECK_ADDRESS_LIMITED = `You have run ${PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR} free checks in the last hour, the most we run for one visitor. Please try again later, or add your domains in the client portal to have them watched.`;
export const PUBLIC_CHECK_SITE_LIMITED =
  "Our free check is very busy this hour and cannot take another domain now. Please try again later.";
export const PUBLIC_CHECK_BUSY = "Several checks are running right now. Please try again in a minute.";
export const PUBLIC_CHECK_FAILED = "The check could not run. Please try again in a few minutes.";

export const publicCheckForm = z.object({
  domain: domainNameSchema,
});

/** One thing to fix, from the alert rules, with the fix offered to a visitor. */
export interface PublicFinding {
  severity: "warning" | "problem";
  title: string;
  message: string;
  fixLabel: string;
  fixHref: string;
}

export type PublicCheckResult =
  | ActionSuccess<{ domain: string; report: DomainReport; summary: string; findings: PublicFinding[] }>
  | ActionFailure<{ domain: string; retryAfterSeconds?: number }>;

export interface PublicCheckDeps {
  db: Database;
  checker: DomainCheckDeps;
  count: (what: "check" | "check-failed") => void;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export function publicCheckDepsOf(context: AppLoadContext): PublicCheckDeps {
  const { runtime, logger } = context;
  return {
    db: runtime.database.db,
    checker: runtime.domainChecker,
    count: runtime.metrics.countDomainWatch,
    logger,
  };
}

/** The domain's worst verdict in a sentence. */
export function verdictSentence(domain: string, verdict: Verdict): string {
  switch (verdict) {
    case "ok":
      return `Everything we checked on ${domain} is in order.`;
    case "warning":
      return `${domain} works, but some checks gave warnings: fix them before they become problems.`;
    case "problem":
      return `${domain} has problems that need fixing now: visitors or mail may already be affected.`;
    default:
      return `Nothing we checked on ${domain} is wrong, but some checks could not be made from here.`;
  }
}

/** The report's problems and warnings, worst first, each with its fix (a purchase or a quote request). */
export function publicFindings(report: DomainReport, now: Date): PublicFinding[] {
  return readAlerts(report, now)
    .candidates.map((c) => ({
      severity: c.severity,
      title: c.title,
      message: c.message,
      fixLabel: FIX_LABELS[c.fix],
      fixHref: publicFixHref(c.fix),
    }))
    .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "problem" ? -1 : 1));
}

/** A counter of the checks running in this process: `enter` says whether one more may start. */
export function checkGate(max: number) {
  let running = 0;
  return {
    enter: () => {
      if (running >= max) return false;
      running++;
      return true;
    },
    leave: () => {
      running = Math.max(0, running - 1);
    },
    get running() {
      return running;
    },
  };
}
const gate = checkGate(PUBLIC_CHECKS_AT_ONCE);

/** Runs the visitor's check: the report and its fixes, or the refusal (400, 429, 503) with its sentence. */
export async function runPublicCheck(
  deps: PublicCheckDeps,
  form: FormData,
  meta: { ip: string | null; signal?: AbortSignal },
): Promise<PublicCheckResult> {
  const values = formValues(form);
  const typed = (values.domain ?? "").slice(0, 300);
  const parsed = publicCheckForm.safeParse(values);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const error = errors.domain ?? parsed.error.issues[0]?.message ?? "Enter a domain name.";
    return { ok: false, status: 400, error, domain: typed, fieldErrors: { domain: error }, inFields: true };
  }
  const name = parsed.data.domain;
  const limits = [
    {
      key: `domain-check:ip:${rateLimitAddress(meta.ip)}`,
      max: PUBLIC_CHECKS_PER_ADDRESS_PER_HOUR,
      error: PUBLIC_CHECK_ADDRESS_LIMITED,
    },
    { key: "domain-check:site", max: PUBLIC_CHECKS_PER_SITE_PER_HOUR, error: PUBLIC_CHECK_SITE_LIMITED },
  ];
  for (const { key, max, error } of limits) {
    const limit = await consumeRateLimit(deps.db, key, max, HOUR_MS);
    if (!limit.allowed) {
      deps.logger.warn({ key, hits: limit.hits }, "public domain check: rate limited");
      return {
        ok: false,
        status: 429,
        error,
        domain: name.unicode,
        retryAfterSeconds: limit.retryAfterSeconds,
      };
    }
  }
  if (!gate.enter()) {
    return { ok: false, status: 503, error: PUBLIC_CHECK_BUSY, domain: name.unicode, retryAfterSeconds: 30 };
  }
  try {
    const report = await checkDomain(name, deps.checker, meta.signal ? { signal: meta.signal } : {});
    deps.count("check");
    return {
      ok: true,
      domain: name.unicode,
      report,
      summary: verdictSentence(name.unicode, report.verdict),
      findings: publicFindings(report, deps.checker.now()),
    };
  } catch (error) {
    deps.count("check-failed");
    const { name: type, message } = error as Error;
    deps.logger.error({ err: { type, message } }, "public domain check failed");
    return { ok: false, status: 503, error: PUBLIC_CHECK_FAILED, domain: name.unicode };
  } finally {
    gate.leave();
  }
}
