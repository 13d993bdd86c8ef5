/**
 * HTTPS on a name (the domain, and www.): one TLS handshake on port 443 through the safe connection,
 * observed without trusting it (so an expired or self-signed certificate can be described), then judged
 * by the certificate rules.
 */
import {
  type CertificateDetails,
  evaluateCertificate,
  observation,
  type TlsObservation,
} from "./certificates";
import { RefusedConnection, type SafeNetwork } from "./network.server";
import { type CheckResult, foldFindings } from "./report";

export interface HttpsDetails {
  host: string;
  /** The address connected to, when the name resolved to allowed ones. */
  address: string | null;
  certificate: CertificateDetails | null;
}

export interface TlsCheckContext {
  network: SafeNetwork;
  now: () => Date;
  ca?: string[] | undefined;
  signal: AbortSignal;
}

/** Why a TLS connection failed, in words; TLS versions older than 1.2 are named. */
export function connectionFailureWords(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  const code = String(e?.code ?? "");
  const message = String(e?.message ?? error);
  if (/unsupported protocol|protocol version|no protocols available|wrong version number/i.test(message)) {
    return "it offers no TLS 1.2 or newer";
  }
  if (code === "ECONNREFUSED") return "the connection was refused";
  if (code === "ETIMEDOUT" || code === "ABORT_ERR" || code === "23" || /time ?out|timed out/i.test(message)) {
    return "it did not answer in time";
  }
  if (code === "ECONNRESET" || code === "EPIPE") return "the connection was closed";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "it cannot be reached from this network";
  return message.length > 120 ? `${message.slice(0, 117)}…` : message;
}

/** Opens 443 on `host`'s address, completes the handshake and returns what it saw. */
export async function observeTlsOn(
  host: string,
  target: { ok: true; name: string; addresses: string[] },
  context: TlsCheckContext,
): Promise<TlsObservation> {
  return context.network.withConnection(target, 443, context.signal, async (socket, attemptSignal) => {
    const secure = await context.network.startTls(
      socket,
      { servername: host, ca: context.ca, verify: false },
      attemptSignal,
    );
    try {
      return observation(secure, host, socket.remoteAddress ?? target.addresses[0]!, context.ca);
    } finally {
      secure.destroy();
    }
  });
}

export async function checkHttps(host: string, context: TlsCheckContext): Promise<CheckResult<HttpsDetails>> {
  const details: HttpsDetails = { host, address: null, certificate: null };
  const target = await context.network.resolve(host, context.signal);
  if (!target.ok) {
    const reason =
      target.kind === "no-address"
        ? `${host} has no address, so there is no website to check there`
        : target.reason;
    return { verdict: "not-checked", reason: `${reason}.`, details };
  }
  details.address = target.addresses[0]!;
  let seen: TlsObservation;
  try {
    seen = await observeTlsOn(host, target, context);
  } catch (error) {
    if (error instanceof RefusedConnection)
      return { verdict: "not-checked", reason: `${error.message}.`, details };
    return {
      verdict: "problem",
      reason: `https://${host} does not answer over HTTPS (tried twice): ${connectionFailureWords(error)}.`,
      details,
    };
  }
  const { findings, details: certificate } = evaluateCertificate(seen, {
    name: host,
    now: context.now(),
    label: `The certificate of ${host}`,
    identityVerdict: "problem",
  });
  return foldFindings(findings, { ...details, address: seen.address, certificate });
}
