/**
 * X.509 certificates made with @peculiar/x509 on Node's WebCrypto: the
 * self-signed TLS certificate of a fresh install, and the self-signed
 * certificate published with each signing key in the JWKS (`x5c`).
 */
import { createHash, randomBytes, webcrypto, type KeyObject } from 'node:crypto';
import type * as X509 from '@peculiar/x509';
import { lazyModule } from '../lazy.js';

/** @peculiar/x509 (and the reflect-metadata it needs), loaded when a certificate is first made or read. */
const x509Module = lazyModule<typeof X509>('@peculiar/x509');
let provided = false;
function peculiar(): typeof X509 {
  if (!provided) {
    lazyModule<unknown>('reflect-metadata')();
    x509Module().cryptoProvider.set(webcrypto as unknown as Parameters<typeof X509.cryptoProvider.set>[0]);
    provided = true;
  }
  return x509Module();
}

const DAY_MS = 86_400_000;

function serialNumber(): string {
  // Positive 16-byte serial (high bit cleared), as RFC 5280 §4.1.2.2 asks.
  const bytes = randomBytes(16);
  bytes[0] = bytes[0]! & 0x7f;
  return bytes.toString('hex');
}

/** Escape a domain for use inside an X.500 name string. */
function cn(value: string): string {
  return `CN=${value.replace(/([,+"\\<>;=])/g, '\\$1')}`;
}

export interface TlsMaterial {
  certPem: string;
  keyPem: string;
}

/**
 * A self-signed ECDSA P-256 server certificate for `localhost`, `127.0.0.1`,
 * `::1` and the default domain's host, valid for 825 days. P-256 keeps
 * handshakes cheap; every client Gatehouse targets supports it.
 */
export async function createTlsCertificate(hosts: string[]): Promise<TlsMaterial> {
  const x509 = peculiar();
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = (await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const names = [...new Set(hosts)];
  const ipPattern = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]+:[0-9a-f:]*)$/i;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: cn(names[0] ?? 'localhost'),
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 825 * DAY_MS),
    signingAlgorithm: algorithm,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map((name) => (ipPattern.test(name) ? { type: 'ip' as const, value: name } : { type: 'dns' as const, value: name })),
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const pkcs8 = await webcrypto.subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: toPem(Buffer.from(pkcs8), 'PRIVATE KEY') };
}

/**
 * The certificate that accompanies a signing key in the JWKS (`x5c`): self-signed,
 * subject and issuer `CN=<tenant domain>`, valid ten years.
 */
export async function createSigningCertificate(
  privateKey: KeyObject,
  publicKey: KeyObject,
  domain: string,
): Promise<Buffer> {
  const x509 = peculiar();
  const algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const;
  const keys = {
    privateKey: await webcrypto.subtle.importKey('pkcs8', privateKey.export({ type: 'pkcs8', format: 'der' }), algorithm, false, [
      'sign',
    ]),
    publicKey: await webcrypto.subtle.importKey('spki', publicKey.export({ type: 'spki', format: 'der' }), algorithm, true, [
      'verify',
    ]),
  } as webcrypto.CryptoKeyPair;
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: cn(domain),
    notBefore: new Date(now - DAY_MS),
    notAfter: new Date(now + 3652 * DAY_MS),
    signingAlgorithm: algorithm,
    keys,
  });
  return Buffer.from(cert.rawData);
}

/** RFC 7517 §4.8 `x5t`: base64url SHA-1 thumbprint of the DER certificate. */
export function x5tOf(der: Buffer): string {
  return createHash('sha1').update(der).digest('base64url');
}

export function toPem(der: Buffer, label: string): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/**
 * A certificate as the service shows it in a client's `signing_keys`: PEM with
 * CRLF line breaks and no trailing newline, and a degenerate PKCS#7 holding it
 * (PEM, CRLF, trailing CRLF).
 */
export function clientSigningKey(der: Buffer): { cert: string; pkcs7: string; subject: string } {
  const x509 = peculiar();
  const cert = toPem(der, 'CERTIFICATE').trimEnd().replace(/\n/g, '\r\n');
  const cms = new x509.X509Certificates([new x509.X509Certificate(der)]).export('base64');
  const pkcs7 = `-----BEGIN PKCS7-----\r\n${(cms.match(/.{1,64}/g) ?? []).join('\r\n')}\r\n-----END PKCS7-----\r\n`;
  return { cert, pkcs7, subject: 'deprecated' };
}
