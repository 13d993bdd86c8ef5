/**
 * The mail authentication checks' reading of the DNS (SPF, DMARC, DKIM) and of the MTA-STS policy;
 * the rules are the pure modules spf.ts, dmarc.ts, dkim.ts and mta-sts.ts.
 */
import { type DkimDetails, dkimSelectorsToTry, evaluateDkim } from "./dkim";
import { type DmarcDetails, evaluateDmarc } from "./dmarc";
import { askTxt, type DnsResolver } from "./dns.server";
import { connectionFailureWords } from "./https.server";
import type { MailServerResult, MailServersDetails } from "./mail-servers.server";
import {
  evaluateMtaSts,
  isStsRecord,
  type MtaStsDetails,
  type PolicyFetch,
  parseStsRecord,
  policyUrl,
} from "./mta-sts";
import { RefusedConnection, type SafeNetwork } from "./network.server";
import type { CheckResult } from "./report";
import { evaluateSpf, type SpfDetails } from "./spf";

export interface MailAuthContext {
  resolver: DnsResolver;
  network: SafeNetwork;
  ca?: string[] | undefined;
  signal: AbortSignal;
}

export function checkSpf(domain: string, context: MailAuthContext): Promise<CheckResult<SpfDetails>> {
  return evaluateSpf(domain, (name) => askTxt(context.resolver, name, context.signal));
}

export async function checkDmarc(
  domain: string,
  context: MailAuthContext,
): Promise<CheckResult<DmarcDetails>> {
  return evaluateDmarc(domain, await askTxt(context.resolver, `_dmarc.${domain}`, context.signal));
}

export async function checkDkim(
  domain: string,
  selectors: readonly string[],
  context: MailAuthContext,
): Promise<CheckResult<DkimDetails>> {
  const answers = await Promise.all(
    dkimSelectorsToTry(selectors).map(async ({ selector, given }) => ({
      selector,
      given,
      answer: await askTxt(context.resolver, `${selector}._domainkey.${domain}`, context.signal),
    })),
  );
  return evaluateDkim(domain, answers);
}

/** The policy file is small (RFC 8461 §3.2 suggests 64 KB at most). */
const MAX_POLICY_BYTES = 64 * 1024;

async function fetchPolicy(domain: string, context: MailAuthContext): Promise<PolicyFetch> {
  try {
    const answer = await context.network.httpsGet(policyUrl(domain), {
      accept: "text/plain",
      maxBytes: MAX_POLICY_BYTES,
      ca: context.ca,
      signal: context.signal,
    });
    const type = answer.headers["content-type"];
    return {
      kind: "answer",
      status: answer.status,
      contentType: typeof type === "string" ? type : null,
      body: answer.body,
    };
  } catch (error) {
    if (error instanceof RefusedConnection) return { kind: "failed", reason: error.message, refused: true };
    const code = String((error as NodeJS.ErrnoException).code ?? "");
    const words =
      code.startsWith("ERR_TLS") || /certificate|self.signed|altname/i.test(String(error))
        ? `its certificate is not valid for mta-sts.${domain} (${(error as Error).message})`
        : connectionFailureWords(error);
    return { kind: "failed", reason: words, refused: false };
  }
}

/** What a sender enforcing MTA-STS would refuse in a mail server, or null (RFC 8461 §4.2). */
export function mtaStsFailure(host: MailServerResult): string | null {
  if (host.state === "no-starttls") return "offers no STARTTLS";
  if (host.state === "tls-failed") return "fails its STARTTLS handshake";
  const cert = host.certificate;
  if (host.state !== "secured" || cert === null) return null;
  if (!cert.nameMatches)
    return `has a certificate for ${cert.altNames.join(", ") || "another name"}, not for its name`;
  if (!cert.chainTrusted) return "has a certificate no one trusts";
  if ((cert.daysLeft ?? -1) < 0) return "has an expired certificate";
  return null;
}

/** MTA-STS, judged against what the mail server check found. */
export async function checkMtaSts(
  domain: string,
  mail: CheckResult<MailServersDetails>,
  mxHosts: string[],
  context: MailAuthContext,
): Promise<CheckResult<MtaStsDetails>> {
  const txt = await askTxt(context.resolver, `_mta-sts.${domain}`, context.signal);
  const records = txt.kind === "found" ? txt.records.filter(isStsRecord) : [];
  const fetchable = records.length === 1 && parseStsRecord(records[0]!).ok;
  const policy = fetchable ? await fetchPolicy(domain, context) : null;
  return evaluateMtaSts({
    domain,
    txt,
    policy,
    mxHosts,
    mxCertificates: mail.details.hosts.map((h) => ({ host: h.host, failure: mtaStsFailure(h) })),
  });
}
