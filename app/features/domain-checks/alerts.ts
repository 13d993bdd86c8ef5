/**
 * Which alerts a domain's report calls for (issue 39, item 3). Pure: the watch (watch.server.ts) compares
 * what this says with the alerts already raised, and raises, replaces or clears them.
 *
 * - An alert belongs to a **family**: one thing that can be wrong, such as the certificate of
 *   `www.example.com`, the DMARC record, the mail server `mx1.example.com`. A family has at most one
 *   open alert.
 * - An expiry alert has a **threshold key** (the certificate's or registration's end day and the
 *   threshold): it is raised once, ever. A certificate at 10 days raises its 14-day alert once, not once
 *   per check, and again at 7 days; a renewed certificate (a new end day) starts over.
 * - A condition alert (DMARC missing, SPF broken, no STARTTLS, an invalid certificate) has no key: it is
 *   raised when its condition appears and cleared when it goes, so a recurrence alerts again.
 * - A family is **settled** when this report read it and found nothing wrong: its open alert clears,
 *   with the sentence this gives ("Certificate renewed on 3 March 2027"). A check that could not tell
 *   (`not-checked`: a DNS failure, port 25 blocked) neither raises nor clears anything.
 */
import type { CertificateDetails } from "./certificates";
import type { DomainReport } from "./domain-report";
import { daysPhrase, formatDay } from "./report";

/** The fix an alert offers (item 4). */
export type AlertFix = "ssl" | "deliverability" | "quote";

export interface AlertCandidate {
  family: string;
  /** What is wrong, one word per condition or threshold: `cert-14`, `dmarc-none`. */
  code: string;
  /** Set for expiry thresholds: the alert is raised once for this key, ever. */
  thresholdKey: string | null;
  severity: "warning" | "problem";
  /** The notice's title and sentence, with the domain or host named. */
  title: string;
  message: string;
  fix: AlertFix;
}

export interface AlertReading {
  /** What is wrong now, one per family at most. */
  candidates: AlertCandidate[];
  /**
   * For a family with an open alert: the sentence that clears it when this report found it fine, or
   * null when it is still wrong or could not be told.
   */
  settled(family: string): string | null;
}

export const CERTIFICATE_THRESHOLDS = [1, 7, 14, 30] as const;
export const REGISTRATION_THRESHOLDS = [7, 30, 60] as const;

/** The smallest threshold `daysLeft` has reached, or null when it is further off than all of them. */
export function thresholdReached(daysLeft: number, thresholds: readonly number[]): number | null {
  for (const t of thresholds) if (daysLeft <= t) return t;
  return null;
}

type FamilyVerdict = { kind: "wrong"; candidate: AlertCandidate } | { kind: "fine"; cleared: string };

const TLS_OLD = new Set(["SSLv3", "TLSv1", "TLSv1.1"]);

function certificateFamily(
  family: string,
  host: string,
  cert: CertificateDetails | null,
  checked: boolean,
  now: Date,
): FamilyVerdict | null {
  if (!checked || !cert?.validTo) return null;
  const daysLeft = cert.daysLeft ?? 0;
  const base = { family, fix: "ssl" as const };
  const invalidWhy =
    daysLeft < 0
      ? `expired on ${formatDay(new Date(cert.validTo))}`
      : !cert.chainTrusted
        ? "is not trusted by browsers"
        : !cert.nameMatches
          ? `is not for ${host}`
          : cert.protocol && TLS_OLD.has(cert.protocol)
            ? `is served over ${cert.protocol}, which browsers refuse`
            : null;
  if (invalidWhy) {
    return {
      kind: "wrong",
      candidate: {
        ...base,
        code: "cert-invalid",
        thresholdKey: null,
        severity: "problem",
        title: `Certificate problem on ${host}`,
        message: `The certificate of ${host} ${invalidWhy}. Visitors see a security warning.`,
      },
    };
  }
  const threshold = thresholdReached(daysLeft, CERTIFICATE_THRESHOLDS);
  if (threshold !== null) {
    const day = cert.validTo.slice(0, 10);
    return {
      kind: "wrong",
      candidate: {
        ...base,
        code: `cert-${threshold}`,
        thresholdKey: `${family}:${day}:${threshold}`,
        severity: threshold <= 7 ? "problem" : "warning",
        title: `Certificate of ${host} expires ${daysPhrase(daysLeft)}`,
        message: `The certificate of ${host} expires on ${formatDay(new Date(cert.validTo))} (${daysPhrase(daysLeft)}). Renew it before visitors see a security warning.`,
      },
    };
  }
  const from = cert.validFrom ? new Date(cert.validFrom) : now;
  return { kind: "fine", cleared: `Certificate renewed on ${formatDay(from)}.` };
}

/** What the report says of each family it read. */
export function readAlerts(report: DomainReport, now: Date): AlertReading {
  const domain = report.domain.unicode;
  const families = new Map<string, FamilyVerdict>();
  const put = (family: string, verdict: FamilyVerdict | null) => {
    if (verdict) families.set(family, verdict);
  };
  const { checks } = report;

  // Website certificates: the domain and www.
  for (const kind of ["https", "httpsWww"] as const) {
    const check = checks[kind];
    const family = `cert:${check.details.host}`;
    const host = kind === "https" ? domain : `www.${domain}`;
    const checked = check.verdict !== "not-checked";
    put(family, certificateFamily(family, host, check.details.certificate, checked, now));
  }

  // Registration.
  const reg = checks.registration;
  if (reg.verdict !== "not-checked" && reg.details.daysLeft !== null && reg.details.expiresOn) {
    const daysLeft = reg.details.daysLeft;
    const day = reg.details.expiresOn.slice(0, 10);
    const when = formatDay(new Date(reg.details.expiresOn));
    const threshold = daysLeft < 0 ? 0 : thresholdReached(daysLeft, REGISTRATION_THRESHOLDS);
    put(
      "registration",
      threshold === null
        ? { kind: "fine", cleared: `Domain renewed until ${when}.` }
        : {
            kind: "wrong",
            candidate: {
              family: "registration",
              code: threshold === 0 ? "registration-expired" : `registration-${threshold}`,
              thresholdKey: `registration:${day}:${threshold}`,
              severity: threshold <= 7 ? "problem" : "warning",
              title: threshold === 0 ? `${domain} has expired` : `${domain} expires ${daysPhrase(daysLeft)}`,
              message:
                threshold === 0
                  ? `The registration of ${domain} ended on ${when}. Its website and email stop working once the registry releases it.`
                  : `The registration of ${domain} ends on ${when} (${daysPhrase(daysLeft)}). Renew it with your registrar.`,
              fix: "quote",
            },
          },
    );
  }

  // DMARC: missing, at p=none, or broken.
  const dmarc = checks.dmarc;
  if (dmarc.verdict !== "not-checked") {
    const base = { family: "dmarc", thresholdKey: null, fix: "deliverability" as const };
    if (!dmarc.details.record) {
      put("dmarc", {
        kind: "wrong",
        candidate: {
          ...base,
          code: "dmarc-missing",
          severity: "problem",
          title: `${domain} has no DMARC record`,
          message: `${domain} publishes no DMARC policy: Google and Yahoo reject bulk mail without one, and anyone can send mail in its name.`,
        },
      });
    } else if (dmarc.details.policy === "none") {
      put("dmarc", {
        kind: "wrong",
        candidate: {
          ...base,
          code: "dmarc-none",
          severity: "warning",
          title: `${domain}'s DMARC policy is p=none`,
          message: `${domain}'s DMARC policy is p=none: mail forged in its name is still delivered.`,
        },
      });
    } else if (dmarc.verdict === "problem") {
      put("dmarc", {
        kind: "wrong",
        candidate: {
          ...base,
          code: "dmarc-broken",
          severity: "problem",
          title: `${domain}'s DMARC record is broken`,
          message: dmarc.reason,
        },
      });
    } else {
      put("dmarc", { kind: "fine", cleared: `DMARC policy set to p=${dmarc.details.policy}.` });
    }
  }

  // SPF: broken (none, two, invalid, over 10 lookups, +all).
  const spf = checks.spf;
  if (spf.verdict !== "not-checked") {
    put(
      "spf",
      spf.verdict === "problem"
        ? {
            kind: "wrong",
            candidate: {
              family: "spf",
              code: "spf-broken",
              thresholdKey: null,
              severity: "problem",
              title: `${domain}'s SPF record is broken`,
              message: spf.reason,
              fix: "deliverability",
            },
          }
        : { kind: "fine", cleared: "SPF record fixed." },
    );
  }

  // Mail servers without STARTTLS (one family per host); a host that could not be reached says nothing.
  const mail = checks.mailServers;
  const mailHosts = new Set([
    ...(mail.details.hosts ?? []).map((h) => h.host),
    ...(mail.details.skipped ?? []),
  ]);
  for (const host of mail.details.hosts ?? []) {
    if (host.state === "no-starttls") {
      put(`starttls:${host.host}`, {
        kind: "wrong",
        candidate: {
          family: `starttls:${host.host}`,
          code: "starttls-missing",
          thresholdKey: null,
          severity: "problem",
          title: `Mail server ${host.host} offers no STARTTLS`,
          message: `The mail server ${host.host} of ${domain} does not offer STARTTLS: mail to it crosses the internet unencrypted.`,
          fix: "quote",
        },
      });
    } else if (host.state === "secured") {
      put(`starttls:${host.host}`, { kind: "fine", cleared: `STARTTLS offered on ${host.host}.` });
    }
  }
  const mailRead = mail.verdict !== "not-checked" || mailHosts.size > 0;

  // A name the DNS does not know (NXDOMAIN): one alert for it, the mail checks having been skipped.
  if (report.nameExists === false) {
    put("dns", {
      kind: "wrong",
      candidate: {
        family: "dns",
        code: "dns-missing",
        thresholdKey: null,
        severity: "problem",
        title: `${domain} does not exist in the DNS`,
        message: `The DNS answers that ${domain} does not exist: its website and email do not work. Check that it is still registered and that its DNS servers answer for it.`,
        fix: "quote",
      },
    });
  } else if (report.nameExists === true) {
    put("dns", { kind: "fine", cleared: `${domain} is found in the DNS again.` });
  }

  const candidates = [...families.values()].flatMap((v) => (v.kind === "wrong" ? [v.candidate] : []));
  return {
    candidates,
    settled(family) {
      const verdict = families.get(family);
      if (verdict) return verdict.kind === "fine" ? verdict.cleared : null;
      // A mail server no longer among the MX hosts, read from a DNS answer: nothing left to watch.
      if (family.startsWith("starttls:") && mailRead && !mailHosts.has(family.slice("starttls:".length))) {
        return `${family.slice("starttls:".length)} is no longer a mail server of ${domain}.`;
      }
      // A certificate alert for www. when www. no longer answers is left open until it is read again.
      return null;
    },
  };
}
