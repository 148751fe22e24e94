/**
 * XML Encryption of a SAML assertion to a service provider's certificate
 * (SAML Core §6; XML Encryption 1.1), through @authenio/xml-encryption (the
 * library samlify uses): AES-256-GCM for the content, RSA-OAEP for the key.
 * Nothing here encrypts by hand.
 */
import { X509Certificate } from 'node:crypto';
import { lazyModule } from '../lazy.js';

interface XmlEncryption {
  encrypt(
    content: string,
    options: { rsa_pub: Buffer; pem: Buffer; encryptionAlgorithm: string; keyEncryptionAlgorithm: string; disallowEncryptionWithInsecureAlgorithm: boolean },
    callback: (error: Error | null, encrypted?: string) => void,
  ): void;
}

/** Loaded on first use (SAML encryption only). */
const xmlenc = lazyModule<XmlEncryption>('@authenio/xml-encryption');

export const CONTENT_ENCRYPTION = 'http://www.w3.org/2009/xmlenc11#aes256-gcm';
export const KEY_TRANSPORT = 'http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p';

/** `xml` (one element) as an `xenc:EncryptedData` element, to the key of `certificatePem`. */
export function encryptElement(xml: string, certificatePem: string): Promise<string> {
  const publicKey = new X509Certificate(certificatePem).publicKey.export({ type: 'spki', format: 'pem' }) as string;
  return new Promise((resolve, reject) => {
    xmlenc().encrypt(
      xml,
      {
        rsa_pub: Buffer.from(publicKey),
        pem: Buffer.from(certificatePem),
        encryptionAlgorithm: CONTENT_ENCRYPTION,
        keyEncryptionAlgorithm: KEY_TRANSPORT,
        disallowEncryptionWithInsecureAlgorithm: true,
      },
      (error, encrypted) => (error || !encrypted ? reject(error ?? new Error('nothing was encrypted')) : resolve(encrypted)),
    );
  });
}
