/** Test certificates made with @peculiar/x509: RSA, self-signed or signed by a test CA. */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const RSA = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 } as const;

export interface TestCertificate {
  pem: string;
  keys: webcrypto.CryptoKeyPair;
  subject: string;
}

async function rsaKeys(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(RSA, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

const serial = () => webcrypto.getRandomValues(new Uint8Array(8)).reduce((s, b) => s + (b & 0x7f).toString(16).padStart(2, '0'), '01');

/** A self-signed RSA certificate for `subject` (e.g. `CN=client, O=Acme`), valid from a day ago for `days`. */
export async function selfSignedCertificate(subject: string, days = 30): Promise<TestCertificate> {
  const keys = await rsaKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: subject,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + days * 86_400_000),
    signingAlgorithm: RSA,
    keys,
  });
  return { pem: cert.toString('pem'), keys, subject };
}

/** A certificate for `subject` signed by `ca`. */
export async function caSignedCertificate(ca: TestCertificate, subject: string, days = 30): Promise<TestCertificate> {
  const keys = await rsaKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: ca.subject,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + days * 86_400_000),
    signingAlgorithm: RSA,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
  });
  return { pem: cert.toString('pem'), keys, subject };
}
