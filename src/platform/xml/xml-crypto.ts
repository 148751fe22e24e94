/**
 * xml-crypto, loaded without its type declarations: they reference
 * TypeScript's DOM library (through xpath's), which would change global
 * types (`Crypto`, `BufferSource`) for the whole program. The interface
 * below is the part of `SignedXml` (xml-crypto 6) that ./signatures.ts uses.
 */
import { createRequire } from 'node:module';

export interface SignedXmlOptions {
  privateKey?: string;
  publicCert?: string;
  signatureAlgorithm?: string;
  canonicalizationAlgorithm?: string;
  getCertFromKeyInfo?: (keyInfo?: unknown) => string | null;
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

const xmlCrypto = createRequire(import.meta.url)('xml-crypto') as { SignedXml: new (options?: SignedXmlOptions) => SignedXml };

export const SignedXml = xmlCrypto.SignedXml;
