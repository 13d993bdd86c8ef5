/**
 * A small internet on this machine for the domain checker's tests (issue 39): a DNS server (npm dns2,
 * UDP and TCP on one port) answering from a zone the test writes, HTTPS servers choosing their
 * certificate by name (SNI) and answering HTTP routes the test sets (MTA-STS policies, RDAP, IANA's
 * bootstrap file), and SMTP servers (npm smtp-server) with and without STARTTLS. The servers listen on
 * several loopback addresses (127.0.0.1, .2, .4) on one port each for HTTPS and SMTP, so names resolving
 * to different addresses reach different servers through the checker's one port override; 127.0.0.3
 * has nothing listening (a server this network cannot reach).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import net from "node:net";
import tls from "node:tls";
import dns2 from "dns2";
import { SMTPServer } from "smtp-server";
import { type Dialer, netDialer } from "~/features/domain-checks/network.server";
import { DEFAULT_SETTINGS, type DomainCheckSettings } from "~/features/domain-checks/settings";
import { createTestCa, type Issued, type TestCa } from "./test-pki";

const { Packet } = dns2;
const DAY_MS = 86_400_000;

/** An HTTP answer of JSON (an RDAP server's, IANA's bootstrap file). */
export function jsonRoute(body: unknown, status = 200): Route {
  return (_req, res) =>
    res.writeHead(status, { "content-type": "application/rdap+json" }).end(JSON.stringify(body));
}

export interface ZoneEntry {
  a?: string[];
  aaaa?: string[];
  mx?: [priority: number, host: string][];
  /** Each record is one or more strings (a long DKIM key is split in 255-byte strings). */
  txt?: (string | string[])[];
}

export type Route = (req: IncomingMessage, res: ServerResponse) => void;

export interface DomainWorld {
  /** "127.0.0.1:PORT", for DNS_SERVERS. */
  dnsServer: string;
  zone: Map<string, ZoneEntry>;
  /** Every question asked, as "TYPE name". */
  questions: string[];
  ca: TestCa;
  now: Date;
  httpsPort: number;
  smtpPort: number;
  /** The certificate an HTTPS or SMTP server presents for a name (SNI). */
  certificates: Map<string, Issued>;
  /** HTTP answers by "host/path". */
  routes: Map<string, Route>;
  /** Settings reaching this world: its DNS server, loopback allowed, 443 and 25 sent to its ports. */
  settings(overrides?: Partial<DomainCheckSettings>): DomainCheckSettings;
  /**
   * Issues a certificate from the world's CA for `names`, valid from a day before `from` (the world's
   * now) to `days` days and an hour after it (the checker counts whole days left), and serves it.
   */
  certify(names: string[], days: number, from?: Date): Promise<void>;
  /** IANA's RDAP bootstrap naming the .com registry, both on names this world's DNS answers. */
  serveRdapBootstrap(): Promise<void>;
  /** The .com registry's answer for `domain`: registered until `days` days after the world's now. */
  serveRegistration(domain: string, days: number): void;
  /** A domain in good health: website (and www.), one MX with STARTTLS, SPF, DMARC at reject. */
  healthyDomain(domain: string, options?: { certificateDays?: number; www?: boolean }): Promise<void>;
  /** A dialer that records each dial and refuses anything but loopback (no test reaches further). */
  dialer(): { dial: Dialer; dials: { address: string; port: number }[] };
  close(): Promise<void>;
}

const TYPE_NAMES: Record<number, string> = { 1: "A", 28: "AAAA", 15: "MX", 16: "TXT" };

/** Splits a TXT string into the 255-byte strings a record carries. */
export function txtStrings(text: string): string[] {
  return text.match(/.{1,255}/g) ?? [""];
}

function startDns(
  zone: Map<string, ZoneEntry>,
  questions: string[],
): Promise<{ port: number; close(): void }> {
  const handle = (request: dns2.Packet, send: (response: dns2.Packet) => void) => {
    const response = Packet.createResponseFromRequest(request);
    const [question] = request.questions;
    const name = String(question?.name ?? "").toLowerCase();
    const type = Number(question?.type);
    questions.push(`${TYPE_NAMES[type] ?? type} ${name}`);
    const entry = zone.get(name);
    if (!entry) {
      response.header.rcode = 3; // NXDOMAIN
      send(response);
      return;
    }
    const base = { name: question!.name, class: Packet.CLASS.IN, ttl: 60 };
    if (type === Packet.TYPE.A)
      for (const address of entry.a ?? []) response.answers.push({ ...base, type, address } as never);
    if (type === Packet.TYPE.AAAA)
      for (const address of entry.aaaa ?? []) response.answers.push({ ...base, type, address } as never);
    if (type === Packet.TYPE.MX) {
      for (const [priority, exchange] of entry.mx ?? [])
        response.answers.push({ ...base, type, priority, exchange } as never);
    }
    if (type === Packet.TYPE.TXT) {
      for (const data of entry.txt ?? []) {
        response.answers.push({
          ...base,
          type,
          data: Array.isArray(data) ? data : txtStrings(data),
        } as never);
      }
    }
    send(response);
  };
  const tcp = new dns2.TCPServer(handle as never);
  return new Promise((resolve, reject) => {
    tcp.once("error", reject);
    tcp.listen(0, "127.0.0.1", () => {
      const port = (tcp.address() as net.AddressInfo).port;
      const udp = new dns2.UDPServer(handle as never);
      udp.once("error", reject);
      void udp.listen(port, "127.0.0.1").then(() =>
        resolve({
          port,
          close: () => {
            tcp.close();
            udp.close();
          },
        }),
      );
    });
  });
}

function listenOn(server: net.Server, port: number, address: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, address, () => resolve((server.address() as net.AddressInfo).port));
  });
}

export async function startDomainWorld(now = new Date()): Promise<DomainWorld> {
  const zone = new Map<string, ZoneEntry>();
  const questions: string[] = [];
  const ca = await createTestCa("Portico Domain Test CA", now);
  const fallback = await ca.issue({
    names: ["unknown.invalid"],
    notAfter: new Date(now.getTime() + 90 * 86_400_000),
  });
  const certificates = new Map<string, Issued>();
  const routes = new Map<string, Route>();
  const contextFor = (name: string, options: tls.SecureContextOptions = {}) =>
    tls.createSecureContext({ ...(certificates.get(name.toLowerCase()) ?? fallback), ...options });

  const dns = await startDns(zone, questions);
  const closers: (() => Promise<void> | void)[] = [dns.close];
  const track = <S extends net.Server>(server: S): S => {
    closers.push(
      () =>
        new Promise<void>((resolve) => {
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          server.close(() => resolve());
        }),
    );
    return server;
  };

  const answer: Route = (req, res) => {
    const route = routes.get(`${String(req.headers.host).split(":")[0]}${req.url}`);
    if (route) return route(req, res);
    res.writeHead(404, { "content-type": "text/plain" }).end("not here");
  };
  // 127.0.0.1: the main HTTPS server; 127.0.0.2: TLS 1.1 at most; 127.0.0.4: accepts and says nothing.
  const main = track(
    createHttpsServer({ ...fallback, SNICallback: (name, cb) => cb(null, contextFor(name)) }, answer),
  );
  const httpsPort = await listenOn(main, 0, "127.0.0.1");
  const oldTls = track(
    createHttpsServer(
      { ...fallback, maxVersion: "TLSv1.1", minVersion: "TLSv1", ciphers: "DEFAULT@SECLEVEL=0" },
      answer,
    ),
  );
  await listenOn(oldTls, httpsPort, "127.0.0.2");
  const silentSockets = new Set<net.Socket>();
  const silent = track(net.createServer((socket) => silentSockets.add(socket)));
  await listenOn(silent, httpsPort, "127.0.0.4");

  // 127.0.0.1: SMTP offering STARTTLS, certificate by name; 127.0.0.2: SMTP without STARTTLS;
  // 127.0.0.4: accepts and never greets.
  const smtpOptions = { authOptional: true, logger: false, closeTimeout: 100 };
  const withTls = new SMTPServer({
    ...smtpOptions,
    ...fallback,
    SNICallback: (name: string, cb: (error: Error | null, context?: tls.SecureContext) => void) =>
      cb(null, contextFor(name)),
  });
  const plain = new SMTPServer({ ...smtpOptions, disabledCommands: ["STARTTLS"] });
  for (const smtp of [withTls, plain])
    closers.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  const smtpPort = await listenOn(withTls.server, 0, "127.0.0.1");
  await listenOn(plain.server, smtpPort, "127.0.0.2");
  const mute = track(net.createServer((socket) => silentSockets.add(socket)));
  await listenOn(mute, smtpPort, "127.0.0.4");
  // Last in, first out: the silent servers' sockets go before the servers wait for them.
  closers.push(() => {
    for (const socket of silentSockets) socket.destroy();
  });

  const world: DomainWorld = {
    dnsServer: `127.0.0.1:${dns.port}`,
    zone,
    questions,
    ca,
    now,
    httpsPort,
    smtpPort,
    certificates,
    routes,
    settings: (overrides = {}) => ({
      ...DEFAULT_SETTINGS,
      dnsServers: [`127.0.0.1:${dns.port}`],
      allowLoopback: true,
      portOverrides: { 443: httpsPort, 25: smtpPort },
      ...overrides,
    }),
    async certify(names, days, from = now) {
      const issued = await ca.issue({
        names,
        notBefore: new Date(from.getTime() - DAY_MS),
        notAfter: new Date(from.getTime() + days * DAY_MS + 3_600_000),
      });
      for (const name of names) certificates.set(name, issued);
    },
    async serveRdapBootstrap() {
      zone.set("data.iana.org", { a: ["127.0.0.1"] });
      zone.set("rdap.verisign.com", { a: ["127.0.0.1"] });
      await world.certify(["data.iana.org", "rdap.verisign.com"], 400);
      routes.set(
        "data.iana.org/rdap/dns.json",
        jsonRoute({ services: [[["com"], ["https://rdap.verisign.com/com/v1/"]]] }),
      );
    },
    serveRegistration(domain, days) {
      routes.set(
        `rdap.verisign.com/com/v1/domain/${domain}`,
        jsonRoute({
          objectClassName: "domain",
          events: [
            { eventAction: "expiration", eventDate: new Date(now.getTime() + days * DAY_MS).toISOString() },
          ],
        }),
      );
    },
    async healthyDomain(domain, { certificateDays = 200, www = true } = {}) {
      zone.set(domain, { a: ["127.0.0.1"], mx: [[10, `mx.${domain}`]], txt: ["v=spf1 mx -all"] });
      if (www) zone.set(`www.${domain}`, { a: ["127.0.0.1"] });
      zone.set(`mx.${domain}`, { a: ["127.0.0.1"] });
      zone.set(`_dmarc.${domain}`, { txt: [`v=DMARC1; p=reject; rua=mailto:dmarc@${domain}`] });
      await world.certify(www ? [domain, `www.${domain}`] : [domain], certificateDays);
      await world.certify([`mx.${domain}`], 400);
      world.serveRegistration(domain, 400);
    },
    dialer() {
      const dials: { address: string; port: number }[] = [];
      const dial: Dialer = (target) => {
        dials.push({ address: target.address, port: target.port });
        if (!target.address.startsWith("127.")) throw new Error(`a test dialled ${target.address}`);
        return netDialer(target);
      };
      return { dial, dials };
    },
    async close() {
      for (const close of closers.reverse()) await close();
    },
  };
  return world;
}
