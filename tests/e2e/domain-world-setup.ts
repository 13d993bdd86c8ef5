/**
 * The browser tests' small internet for the domain watch (issue 39): the loopback world of
 * tests/support/domain-world.ts with IANA's RDAP bootstrap and one domain, journey-watch.com, whose
 * website certificate (from the world's test CA, which the server trusts through DOMAIN_CHECK_CA_FILE)
 * expires in ten days; its mail, SPF, DMARC and registration are fine. Any other name is unknown.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { type DomainWorld, startDomainWorld } from "../support/domain-world";

export const JOURNEY_DOMAIN = "journey-watch.com";

export async function startE2eDomainWorld(
  dir: string,
): Promise<{ world: DomainWorld; env: Record<string, string> }> {
  const world = await startDomainWorld();
  await world.serveRdapBootstrap();
  // No www.: its check has nothing to read, so the one alert is the domain's own certificate.
  await world.healthyDomain(JOURNEY_DOMAIN, { certificateDays: 10, www: false });

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
