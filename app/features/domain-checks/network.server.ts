/**
 * The checker's only way out (issue 39, item 7; ADR 0540). A name is resolved once, every address it
 * gives is judged by `classifyAddress`, and a connection is then made to one of those exact addresses
 * (never by name again, so a second DNS answer cannot point it elsewhere), on port 443 or 25 only, with
 * the TLS server name (SNI) set to the name. A name with any refused address is refused as a whole.
 * Each connection, with the exchange on it, has `connectionMs`; a failed one is tried once more (on the
 * next address when there is one); the caller's signal (the domain's 20 s) cuts everything short.
 */
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import net from "node:net";
import tls from "node:tls";
import { type AddressVerdict, classifyAddress } from "./addresses";
import { ask, type DnsResolver, dnsFailureWords } from "./dns.server";
import {
  CHECKED_PORTS,
  type CheckedPort,
  type DomainCheckSettings,
  domainCheckSafetyError,
} from "./settings";

/** Opens a TCP connection to an address already allowed. Tests wrap it to see every dial. */
export type Dialer = (target: { address: string; port: number; family: 4 | 6 }) => net.Socket;

export const netDialer: Dialer = ({ address, port }) => net.connect({ host: address, port });

/** A connection the safety rules do not allow: never retried, and the check says "not checked". */
export class RefusedConnection extends Error {
  override name = "RefusedConnection";
  readonly code = "EREFUSED_BY_RULES";
}

export type Resolution =
  | { ok: true; name: string; addresses: string[] }
  | {
      ok: false;
      name: string;
      /** no-address: the name has no A/AAAA; refused: an address is not public; dns-failed: no answer. */
      kind: "no-address" | "refused" | "dns-failed";
      reason: string;
      refused?: Extract<AddressVerdict, { allowed: false }>;
    };

export interface TlsOptions {
  /** The name the certificate is for (SNI, and the name checked when `verify`). */
  servername: string;
  /** Trust anchors instead of Node's store (tests). */
  ca?: string[] | undefined;
  /** Refuse an untrusted or misnamed certificate (fetches); false to observe it (the certificate checks). */
  verify: boolean;
}

export interface HttpsAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface HttpsGetOptions {
  accept: string;
  maxBytes: number;
  ca?: string[] | undefined;
  signal: AbortSignal;
}

export interface SafeNetwork {
  /** Resolves `name` once and judges every address. */
  resolve(name: string, signal: AbortSignal): Promise<Resolution>;
  /**
   * Runs `use` on a TCP connection to the resolved name on `port`, within `connectionMs`, tried once
   * more on failure. The socket is destroyed when `use` settles.
   */
  withConnection<T>(
    target: Extract<Resolution, { ok: true }>,
    port: number,
    signal: AbortSignal,
    use: (socket: net.Socket, attemptSignal: AbortSignal) => Promise<T>,
  ): Promise<T>;
  /** A TLS connection over `socket` (handshake within the attempt's signal). */
  startTls(socket: net.Socket, options: TlsOptions, signal: AbortSignal): Promise<tls.TLSSocket>;
  /** GET an https:// URL (port 443 only), certificate verified, redirects not followed, body capped. */
  httpsGet(url: string, options: HttpsGetOptions): Promise<HttpsAnswer>;
}

function abortReason(signal: AbortSignal): Error {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  const error = new Error("The time limit ran out") as NodeJS.ErrnoException;
  error.code = "ETIMEDOUT";
  return error;
}

/** Rejects as soon as `signal` aborts, running `cleanup`; settles with `work` otherwise. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, cleanup: () => void): Promise<T> {
  if (signal.aborted) {
    cleanup();
    return Promise.reject(abortReason(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      cleanup();
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export function assertCheckedPort(port: number): asserts port is CheckedPort {
  if (!(CHECKED_PORTS as readonly number[]).includes(port)) {
    throw new RefusedConnection(`port ${port} is not one the checker uses (only 443 and 25)`);
  }
}

export interface SafeNetworkOptions {
  settings: DomainCheckSettings;
  resolver: DnsResolver;
  dial?: Dialer;
  /** The process's NODE_ENV, for the safety rule (default: process.env.NODE_ENV). */
  nodeEnv?: string | undefined;
}

export function createSafeNetwork(options: SafeNetworkOptions): SafeNetwork {
  const { settings, resolver } = options;
  const dial = options.dial ?? netDialer;
  const unsafe = domainCheckSafetyError(settings, options.nodeEnv ?? process.env.NODE_ENV);
  if (unsafe) throw new Error(unsafe);

  async function resolve(name: string, signal: AbortSignal): Promise<Resolution> {
    const [v4, v6] = await Promise.all([
      ask(() => resolver.resolve4(name), signal),
      ask(() => resolver.resolve6(name), signal),
    ]);
    const addresses = [
      ...(v4.kind === "found" ? v4.records : []),
      ...(v6.kind === "found" ? v6.records : []),
    ];
    if (addresses.length === 0) {
      const failed = [v4, v6].find((a) => a.kind === "failed");
      if (failed?.kind === "failed") {
        return { ok: false, name, kind: "dns-failed", reason: `${name}: ${dnsFailureWords(failed.code)}` };
      }
      return { ok: false, name, kind: "no-address", reason: `${name} has no address (no A or AAAA record)` };
    }
    const verdicts = addresses.map((a) => classifyAddress(a, { allowLoopback: settings.allowLoopback }));
    const refused = verdicts.find((v): v is Extract<AddressVerdict, { allowed: false }> => !v.allowed);
    if (refused) {
      return {
        ok: false,
        name,
        kind: "refused",
        refused,
        reason: `${name} resolves to ${refused.address}, ${refused.reason}: the checker does not connect there`,
      };
    }
    return { ok: true, name, addresses: verdicts.map((v) => v.address) };
  }

  /** The port dialled: the tests' override applies to loopback addresses only. */
  function dialPort(address: string, port: CheckedPort): number {
    const override = settings.portOverrides[port];
    if (override === undefined || !settings.allowLoopback) return port;
    const verdict = classifyAddress(address);
    return !verdict.allowed && verdict.range === "loopback" ? override : port;
  }

  function openTcp(address: string, port: CheckedPort, signal: AbortSignal): Promise<net.Socket> {
    // The rule again at the last step: whatever called this, only an allowed address is dialled.
    const verdict = classifyAddress(address, { allowLoopback: settings.allowLoopback });
    if (!verdict.allowed) {
      return Promise.reject(new RefusedConnection(`${address} is ${verdict.reason}: not connected`));
    }
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const socket = dial({
      address: verdict.address,
      port: dialPort(verdict.address, port),
      family: verdict.family,
    });
    const connected = new Promise<net.Socket>((resolveSocket, reject) => {
      socket.once("connect", () => resolveSocket(socket));
      socket.once("error", reject);
    });
    return untilAborted(connected, signal, () => socket.destroy());
  }

  async function withConnection<T>(
    target: Extract<Resolution, { ok: true }>,
    port: number,
    signal: AbortSignal,
    use: (socket: net.Socket, attemptSignal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    assertCheckedPort(port);
    let lastError: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      if (signal.aborted) throw abortReason(signal);
      const address = target.addresses[attempt % target.addresses.length]!;
      const attemptSignal = AbortSignal.any([signal, AbortSignal.timeout(settings.limits.connectionMs)]);
      let socket: net.Socket | null = null;
      try {
        socket = await openTcp(address, port, attemptSignal);
        socket.on("error", () => {});
        const open = socket;
        return await untilAborted(use(open, attemptSignal), attemptSignal, () => open.destroy());
      } catch (error) {
        if (error instanceof RefusedConnection) throw error;
        lastError = error;
      } finally {
        socket?.destroy();
      }
    }
    throw lastError;
  }

  function startTls(socket: net.Socket, options: TlsOptions, signal: AbortSignal): Promise<tls.TLSSocket> {
    const secure = tls.connect({
      socket,
      servername: options.servername,
      ...(options.ca ? { ca: options.ca } : {}),
      rejectUnauthorized: options.verify,
      // Observing: the name is checked by the certificate rules, so `authorized` says the chain only.
      ...(options.verify ? {} : { checkServerIdentity: () => undefined }),
    });
    const handshake = new Promise<tls.TLSSocket>((resolveTls, reject) => {
      secure.once("secureConnect", () => resolveTls(secure));
      secure.once("error", reject);
    });
    secure.on("error", () => {});
    return untilAborted(handshake, signal, () => secure.destroy());
  }

  async function httpsGet(url: string, options: HttpsGetOptions): Promise<HttpsAnswer> {
    const target = new URL(url);
    if (target.protocol !== "https:") throw new RefusedConnection(`${url} is not an https:// address`);
    const port = target.port === "" ? 443 : Number(target.port);
    assertCheckedPort(port);
    const host = target.hostname;
    if (net.isIP(host.replace(/^\[|\]$/g, "")) !== 0) {
      throw new RefusedConnection(`${url} names an IP address, not a domain: not connected`);
    }
    const resolution = await resolve(host, options.signal);
    if (!resolution.ok) {
      if (resolution.kind === "refused") throw new RefusedConnection(resolution.reason);
      // No address, or no answer: a fact about the name (a check may call it a problem), not a refusal.
      throw Object.assign(new Error(resolution.reason), {
        code: resolution.kind === "no-address" ? "ENOTFOUND" : "EDNS",
      });
    }
    return withConnection(resolution, port, options.signal, async (socket, attemptSignal) => {
      const secure = await startTls(
        socket,
        { servername: host, ca: options.ca, verify: true },
        attemptSignal,
      );
      return getOver(secure, target, options);
    });
  }

  return { resolve, withConnection, startTls, httpsGet };
}

/** One HTTP/1.1 GET over an open TLS socket; the body is cut off (an error) past `maxBytes`. */
function getOver(secure: tls.TLSSocket, url: URL, options: HttpsGetOptions): Promise<HttpsAnswer> {
  return new Promise<HttpsAnswer>((resolve, reject) => {
    const req = httpRequest({
      method: "GET",
      host: url.hostname,
      path: `${url.pathname}${url.search}`,
      headers: { host: url.host, accept: options.accept, "user-agent": "Portico domain checker" },
      // No agent: with `agent: false` Node makes a fresh Agent, which ignores createConnection and
      // would resolve the name again. The request runs on the socket already connected and verified.
      createConnection: () => secure,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          reject(new Error(`the answer is larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    req.end();
  });
}
