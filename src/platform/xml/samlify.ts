/**
 * samlify, loaded without its type declarations: they reference
 * TypeScript's DOM library (through the @xmldom/xmldom 0.8 it bundles),
 * which would change global types (`Crypto`, `BufferSource`) for the whole
 * program. The interfaces below are the parts of samlify 2.13 that
 * Gatehouse calls; their shapes are samlify's own (types/src/*.d.ts).
 */
import { lazyModule } from '../lazy.js';

export interface SamlifyEndpoint {
  Binding: string;
  Location: string;
}

export interface SamlifyEntity {
  getMetadata(): string;
  entityMeta: {
    getEntityID(): string;
    /** The certificate (base64 DER) of a use (`signing`, `encryption`); a list when the metadata has several. */
    getX509Certificate(use: string): string | string[];
    /** The location of a binding's endpoint (`redirect`, `post`). */
    getSingleSignOnService(binding: string): string | object;
    getSingleLogoutService(binding: string | undefined): string | object;
  };
}

export interface Samlify {
  SamlLib: {
    verifyMessageSignature(metadata: { getX509Certificate(use: string): string }, octetString: string, signature: Buffer, verifyAlgorithm?: string): boolean;
    constructMessageSignature(octetString: string, key: string, passphrase?: string, isBase64?: boolean, signingAlgorithm?: string): string | Buffer;
  };
  IdentityProvider(settings: Record<string, unknown>): SamlifyEntity;
  ServiceProvider(settings: Record<string, unknown>): SamlifyEntity;
}

/** Loaded on the first SAML request, not at start-up (its XML stack is large). */
export const samlify = lazyModule<Samlify>('samlify');
