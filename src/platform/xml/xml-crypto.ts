/**
 * xml-crypto, loaded without its type declarations: they reference
 * TypeScript's DOM library (through xpath's), which would change global
 * types (`Crypto`, `BufferSource`) for the whole program. The interface
 * below is the part of `SignedXml` (xml-crypto 6) that ./signatures.ts uses.
 */
import type { KeyObject } from 'node:crypto';
import { lazyModule } from '../lazy.js';

export interface SignedXmlOptions {
  /** An ID attribute name beyond `Id`, `ID` and `id` (SAML 1.1: `AssertionID`). */
  idAttribute?: string;
  privateKey?: string | KeyObject;
  publicCert?: string;
  signatureAlgorithm?: string;
  canonicalizationAlgorithm?: string;
  getCertFromKeyInfo?: (keyInfo?: unknown) => string | null;
  getKeyInfoContent?: (args?: { publicCert?: string; prefix?: string | null }) => string | null;
}

export interface SignedXml {
  signatureAlgorithm?: string;
  addReference(reference: { xpath: string; digestAlgorithm: string; transforms: string[] }): void;
  computeSignature(xml: string, options: { prefix?: string; location?: { reference: string; action: 'append' | 'prepend' | 'before' | 'after' } }): void;
  getSignedXml(): string;
  loadSignature(signature: unknown): void;
  getReferences(): { uri?: string }[];
  checkSignature(xml: string): boolean;
  getSignedReferences(): string[];
}

type XmlCrypto = {
  SignedXml: (new (options?: SignedXmlOptions) => SignedXml) & {
    /** The KeyInfo content xml-crypto publishes for a certificate (X509Data). */
    getKeyInfoContent(args: { publicCert?: string; prefix?: string | null }): string | null;
  };
};

const xmlCrypto = lazyModule<XmlCrypto>('xml-crypto');

/** xml-crypto's SignedXml, loaded on first use (SAML only). */
export function SignedXml(): XmlCrypto['SignedXml'] {
  return xmlCrypto().SignedXml;
}
