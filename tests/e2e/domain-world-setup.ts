/**
 * The browser tests' small internet for the domain watch (issue 39): the loopback world of
 * tests/support/domain-world.ts with IANA's RDAP bootstrap and one domain, journey-watch.com, whose
 * website certificate (from the world's test CA, which the server trusts through DOMAIN_CHECK_CA_FILE)
 * expires in ten days; its mail, SPF, DMARC and registration are fine. Any other name is unknown.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type DomainWorld, startDomainWorld } from "../support/domain-world";

const DAY = 86_400_000;
export const JOURNEY_DOMAIN = "journey-watch.com";

export async function startE2eDomainWorld(
  dir: string,
): Promise<{ world: DomainWorld; env: Record<string, string> }> {
  const world = await startDomainWorld();
  const { zone, routes, now } = world;
  const certify = async (names: string[], days: number) => {
    const issued = await world.ca.issue({
      names,
      notBefore: new Date(now.getTime() - DAY),
      notAfter: new Date(now.getTime() + days * DAY + 3_600_000),
    });
    for (const name of names) world.certificates.set(name, issued);
  };
  const json = (body: unknown) => (_req: unknown, res: import("node:http").ServerResponse) =>
    res.writeHead(200, { "content-type": "application/rdap+json" }).end(JSON.stringify(body));
  zone.set("data.iana.org", { a: ["127.0.0.1"] });
  zone.set("rdap.verisign.com", { a: ["127.0.0.1"] });
  await certify(["data.iana.org", "rdap.verisign.com"], 400);
  routes.set(
    "data.iana.org/rdap/dns.json",
    json({ services: [[["com"], ["https://rdap.verisign.com/com/v1/"]]] }),
  );

  zone.set(JOURNEY_DOMAIN, { a: ["127.0.0.1"], mx: [[10, `mx.${JOURNEY_DOMAIN}`]], txt: ["v=spf1 mx -all"] });
  zone.set(`mx.${JOURNEY_DOMAIN}`, { a: ["127.0.0.1"] });
  zone.set(`_dmarc.${JOURNEY_DOMAIN}`, { txt: [`v=DMARC1; p=reject; rua=mailto:dmarc@${JOURNEY_DOMAIN}`] });
  await certify([JOURNEY_DOMAIN], 10);
  await certify([`mx.${JOURNEY_DOMAIN}`], 400);
  routes.set(
    `rdap.verisign.com/com/v1/domain/${JOURNEY_DOMAIN}`,
    json({
      objectClassName: "domain",
      events: [{ eventAction: "expiration", eventDate: new Date(now.getTime() + 400 * DAY).toISOString() }],
    }),
  );

  const caFile = path.join(dir, "domain-test-ca.pem");
  writeFileSync(caFile, world.ca.cert);
  return {
    world,
    env: {
      DNS_SERVERS: world.dnsServer,
      DOMAIN_CHECK_ALLOW_LOOPBACK: "true",
      DOMAIN_CHECK_PORTS: `443=${world.httpsPort},25=${world.smtpPort}`,
      DOMAIN_CHECK_CA_FILE: caFile,
    },
  };
}
