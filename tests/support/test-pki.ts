/**
 * Certificates the tests make (npm @peculiar/x509 on Node's WebCrypto): a test CA the checker is told
 * to trust, certificates it issues for any names and dates, and self-signed ones. ECDSA P-256 keys, so
 * making a dozen takes milliseconds.
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
const DAY = 86_400_000;

export interface Issued {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

export interface CertificateRequest {
  names: string[];
  notBefore?: Date;
  notAfter: Date;
}

export interface TestCa {
  /** The CA's certificate (PEM): the checker's `ca` in the tests. */
  cert: string;
  issue(request: CertificateRequest): Promise<Issued>;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", key));
  const lines = der
    .toString("base64")
    .match(/.{1,64}/g)!
    .join("\n");
  return `-----BEGIN PRIVATE KEY-----\n${lines}\n-----END PRIVATE KEY-----\n`;
}

function serial(): string {
  return `01${Buffer.from(webcrypto.getRandomValues(new Uint8Array(8))).toString("hex")}`;
}

async function leafExtensions(names: string[], keys: CryptoKeyPair): Promise<x509.Extension[]> {
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
    new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    new x509.SubjectAlternativeNameExtension(names.map((value) => ({ type: "dns" as const, value }))),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
}

export async function createTestCa(name = "Portico Test CA", now = new Date()): Promise<TestCa> {
  const caKeys = await keyPair();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${name}`,
    notBefore: new Date(now.getTime() - 30 * DAY),
    notAfter: new Date(now.getTime() + 3650 * DAY),
    keys: caKeys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  return {
    cert: caCert.toString("pem"),
    async issue({ names, notBefore, notAfter }) {
      const keys = await keyPair();
      const cert = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${names[0]}`,
        issuer: caCert.subject,
        notBefore: notBefore ?? new Date(notAfter.getTime() - 90 * DAY),
        notAfter,
        publicKey: keys.publicKey,
        signingKey: caKeys.privateKey,
        signingAlgorithm: ALGORITHM,
        extensions: [
          ...(await leafExtensions(names, keys)),
          await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
        ],
      });
      return { cert: cert.toString("pem"), key: await privateKeyPem(keys.privateKey) };
    },
  };
}

/** A certificate signed by its own key: trusted by no one. */
export async function selfSigned({ names, notBefore, notAfter }: CertificateRequest): Promise<Issued> {
  const keys = await keyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${names[0]}`,
    notBefore: notBefore ?? new Date(notAfter.getTime() - 90 * DAY),
    notAfter,
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: await leafExtensions(names, keys),
  });
  return { cert: cert.toString("pem"), key: await privateKeyPem(keys.privateKey) };
}
