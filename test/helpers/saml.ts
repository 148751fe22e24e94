/**
 * SAML parties for tests: an RSA key with a self-signed certificate (an SP's
 * or an external IdP's), made with Gatehouse's own certificate code, and
 * reading the SAMLResponse and RelayState out of a form_post page.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createSigningCertificate, toPem } from '../../src/platform/crypto/certificates.js';
import { hidden } from './browser.js';

export interface KeyAndCertificate {
  privateKeyPem: string;
  certificatePem: string;
  /** The certificate's DER in base64 (as metadata carries it). */
  certificateBase64: string;
}

export async function keyAndCertificate(name = 'sp.example.com'): Promise<KeyAndCertificate> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = await createSigningCertificate(privateKey, publicKey, name);
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    certificatePem: toPem(der, 'CERTIFICATE'),
    certificateBase64: der.toString('base64'),
  };
}

const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The form a form_post page posts: its action and its fields. */
export function postedForm(body: string): { action: string; fields: Record<string, string> } {
  const action = /<form method="post" action="([^"]*)"/.exec(body)?.[1];
  if (action === undefined) throw new Error(`no form in the page: ${body.slice(0, 500)}`);
  const fields: Record<string, string> = {};
  for (const name of ['SAMLResponse', 'SAMLRequest', 'RelayState']) {
    if (body.includes(`name="${name}"`)) fields[name] = unescape(hidden(body, name));
  }
  return { action: unescape(action), fields };
}

/** The XML of a base64 SAML message. */
export const samlXml = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');
