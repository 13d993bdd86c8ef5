/**
 * One domain's report: the eight checks of issue 39 item 2, in the order pages show them. Types and
 * names only (no I/O), so pages can import them.
 */
import type { DkimDetails } from "./dkim";
import type { DmarcDetails } from "./dmarc";
import type { HttpsDetails } from "./https.server";
import type { MailServersDetails } from "./mail-servers.server";
import type { MtaStsDetails } from "./mta-sts";
import type { DomainName } from "./names";
import type { RegistrationDetails } from "./rdap";
import type { CheckResult, Verdict } from "./report";
import type { SpfDetails } from "./spf";

/** The checks of a report, in the order they are shown. */
export const CHECK_KINDS = [
  "https",
  "httpsWww",
  "mailServers",
  "spf",
  "dmarc",
  "dkim",
  "mtaSts",
  "registration",
] as const;
export type CheckKind = (typeof CHECK_KINDS)[number];

export interface CheckDetails {
  https: HttpsDetails;
  httpsWww: HttpsDetails;
  mailServers: MailServersDetails;
  spf: SpfDetails;
  dmarc: DmarcDetails;
  dkim: DkimDetails;
  mtaSts: MtaStsDetails;
  registration: RegistrationDetails;
}

export type DomainChecks = { [K in CheckKind]: CheckResult<CheckDetails[K]> };

/** What each check is called on a page; {domain} is the domain's Unicode form. */
export const CHECK_TITLES: Record<CheckKind, string> = {
  https: "Website certificate ({domain})",
  httpsWww: "Website certificate (www.{domain})",
  mailServers: "Mail servers and STARTTLS",
  spf: "SPF",
  dmarc: "DMARC",
  dkim: "DKIM",
  mtaSts: "MTA-STS",
  registration: "Domain registration",
};

export interface DomainReport {
  domain: DomainName;
  /** When the check started (the injected clock). */
  checkedAt: string;
  /** The worst verdict of the checks; a problem when the name does not exist. */
  verdict: Verdict;
  /**
   * False when the DNS says the name does not exist (NXDOMAIN): the mail checks are then not checked and
   * the one alert is the name's. Absent on reports made before it was kept (read as existing).
   */
  nameExists?: boolean;
  checks: DomainChecks;
}
