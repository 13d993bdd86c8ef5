/**
 * The mail servers (MX) and each one's STARTTLS (RFC 3207) on port 25: nodemailer's SMTPConnection
 * speaks EHLO and STARTTLS over a socket the safe connection opened to the resolved address, the TLS
 * certificate is observed and judged by the certificate rules. Many networks block outbound port 25, so
 * a server that cannot be reached from here is "not checked from this network", never a problem.
 */
import tls from "node:tls";
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import {
  type CertificateDetails,
  evaluateCertificate,
  observation,
  type TlsObservation,
} from "./certificates";
import type { DnsResolver } from "./dns.server";
import { ask, dnsFailureWords } from "./dns.server";
import type { TlsCheckContext } from "./https.server";
import { normaliseHostName } from "./names";
import { RefusedConnection } from "./network.server";
import {
  type CheckResult,
  type Finding,
  foldFindings,
  formatDay,
  type Verdict,
  worstVerdict,
} from "./report";

/** The most MX hosts checked (the most preferred first): the domain's 20 s are shared. */
export const MAX_MX_HOSTS = 5;

export type MailServerState =
  | "secured"
  | "no-starttls"
  | "tls-failed"
  | "unreachable"
  | "no-address"
  | "refused"
  | "dns-failed";

export interface MailServerResult {
  host: string;
  priority: number;
  address: string | null;
  state: MailServerState;
  verdict: Verdict;
  reason: string;
  certificate: CertificateDetails | null;
}

export interface MailServersDetails {
  /** RFC 7505: the domain says it receives no mail ("0 ."). */
  nullMx: boolean;
  hosts: MailServerResult[];
  /** MX hosts beyond MAX_MX_HOSTS, not checked. */
  skipped: string[];
}

type Dialogue = { kind: "secured"; seen: TlsObservation } | { kind: "no-starttls" };

/** EHLO, then STARTTLS when offered, on an open socket; the certificate is observed, not trusted. */
async function startTlsOver(
  socket: import("node:net").Socket,
  host: string,
  context: TlsCheckContext,
  signal: AbortSignal,
  limitMs: number,
): Promise<Dialogue> {
  const { default: Connection } = await import("nodemailer/lib/smtp-connection");
  const options: SMTPConnection.Options = {
    host,
    port: 25,
    connection: socket,
    connectionTimeout: limitMs,
    greetingTimeout: limitMs,
    socketTimeout: limitMs,
    logger: false,
    tls: {
      servername: host,
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
      ...(context.ca ? { ca: context.ca } : {}),
    },
  };
  const connection = new Connection(options);
  const onAbort = () => connection.close();
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    await new Promise<void>((resolve, reject) => {
      connection.on("error", reject);
      connection.connect((error) => (error ? reject(error) : resolve()));
    });
    const secure = connection._socket;
    if (!connection.secure || !(secure instanceof tls.TLSSocket)) return { kind: "no-starttls" };
    return { kind: "secured", seen: observation(secure, host, socket.remoteAddress ?? "", context.ca) };
  } finally {
    signal.removeEventListener("abort", onAbort);
    connection.close();
  }
}

async function checkOne(
  mx: { exchange: string; priority: number },
  context: TlsCheckContext & { limitMs: number },
): Promise<MailServerResult> {
  const host = normaliseHostName(mx.exchange);
  const base = { host, priority: mx.priority, address: null, certificate: null };
  const target = await context.network.resolve(host, context.signal);
  if (!target.ok) {
    if (target.kind === "no-address") {
      return {
        ...base,
        state: "no-address",
        verdict: "problem",
        reason: `The mail server ${host} has no address: mail cannot be delivered to it`,
      };
    }
    return { ...base, state: target.kind, verdict: "not-checked", reason: target.reason };
  }
  const address = target.addresses[0]!;
  let dialogue: Dialogue;
  try {
    dialogue = await context.network.withConnection(target, 25, context.signal, (socket, attemptSignal) =>
      startTlsOver(socket, host, context, attemptSignal, context.limitMs),
    );
  } catch (error) {
    if (error instanceof RefusedConnection) {
      return { ...base, address, state: "refused", verdict: "not-checked", reason: error.message };
    }
    if ((error as NodeJS.ErrnoException).code === "ETLS") {
      const message = String((error as Error).message).replace(/^Error initiating TLS - /, "");
      return {
        ...base,
        address,
        state: "tls-failed",
        verdict: "problem",
        reason: `STARTTLS on the mail server ${host} fails: ${message}`,
      };
    }
    return {
      ...base,
      address,
      state: "unreachable",
      verdict: "not-checked",
      reason: `The mail server ${host} was not checked from this network (port 25 could not be reached)`,
    };
  }
  if (dialogue.kind === "no-starttls") {
    return {
      ...base,
      address,
      state: "no-starttls",
      verdict: "problem",
      reason: `The mail server ${host} does not offer STARTTLS: mail to it travels unencrypted`,
    };
  }
  const { findings, details } = evaluateCertificate(dialogue.seen, {
    name: host,
    now: context.now(),
    label: `The certificate of the mail server ${host}`,
    identityVerdict: "warning",
  });
  const folded = foldFindings(
    findings,
    null,
    `The mail server ${host} offers STARTTLS with a certificate valid until ${formatDay(new Date(details.validTo ?? 0))}`,
  );
  return {
    ...base,
    address,
    state: "secured",
    verdict: folded.verdict,
    reason: folded.reason,
    certificate: details,
  };
}

/** The MX records of `domain`, most preferred first. */
export async function readMx(
  resolver: DnsResolver,
  domain: string,
  signal: AbortSignal,
): Promise<
  | { kind: "found"; records: { exchange: string; priority: number }[] }
  | { kind: "none" }
  | { kind: "failed"; code: string }
> {
  const answer = await ask(() => resolver.resolveMx(domain), signal);
  if (answer.kind !== "found") return answer;
  return { kind: "found", records: [...answer.records].sort((a, b) => a.priority - b.priority) };
}

export async function checkMailServers(
  domain: string,
  mx: Awaited<ReturnType<typeof readMx>>,
  context: TlsCheckContext & { limitMs: number },
): Promise<CheckResult<MailServersDetails>> {
  const details: MailServersDetails = { nullMx: false, hosts: [], skipped: [] };
  if (mx.kind === "failed") {
    return {
      verdict: "not-checked",
      reason: `The mail servers of ${domain} could not be read: ${dnsFailureWords(mx.code)}.`,
      details,
    };
  }
  if (mx.kind === "none") {
    return {
      verdict: "not-checked",
      reason: `${domain} has no mail servers (no MX record), so there is no mail server to check.`,
      details,
    };
  }
  if (mx.records.length === 1 && normaliseHostName(mx.records[0]!.exchange) === "") {
    return {
      verdict: "ok",
      reason: `${domain} says it receives no mail (a null MX record).`,
      details: { ...details, nullMx: true },
    };
  }
  const checked = mx.records.slice(0, MAX_MX_HOSTS);
  details.skipped = mx.records.slice(MAX_MX_HOSTS).map((r) => normaliseHostName(r.exchange));
  details.hosts = await Promise.all(checked.map((record) => checkOne(record, context)));
  const findings: Finding[] = details.hosts.map((h) => ({ verdict: h.verdict, reason: h.reason }));
  if (details.skipped.length > 0) {
    findings.push({ verdict: "ok", reason: `${details.skipped.length} more mail servers were not checked` });
  }
  const verdict = worstVerdict(findings.map((f) => f.verdict));
  const names = details.hosts.map((h) => h.host).join(", ");
  return foldFindings(
    findings,
    details,
    verdict === "ok" ? `Every mail server (${names}) offers STARTTLS with a valid certificate.` : undefined,
  );
}
