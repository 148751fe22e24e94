/**
 * SAML parties for tests: an RSA key with a self-signed certificate (an SP's
 * or an external IdP's), made with Gatehouse's own certificate code, and
 * reading the SAMLResponse and RelayState out of a form_post page.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
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

/**
 * samlify, loaded without its type declarations (they pull TypeScript's DOM
 * library into the whole program, see src/platform/xml/samlify.ts), with the
 * schema validator it needs to parse messages.
 */
interface SamlifyForTests {
  IdentityProvider(settings: Record<string, unknown>): {
    parseLoginRequest(sp: unknown, binding: string, request: Record<string, unknown>): Promise<{ extract: { request: { id: string } } }>;
    createLoginResponse(sp: unknown, requestInfo: unknown, binding: string, user: Record<string, unknown>, replace?: (template: string) => { id: string; context: string }): Promise<{ context: string }>;
  };
  ServiceProvider(settings: Record<string, unknown>): unknown;
  SamlLib: { replaceTagsByValue(template: string, values: Record<string, string | null>): string };
  setSchemaValidator(validator: { validate(xml: string): Promise<unknown> }): void;
}

const require = createRequire(import.meta.url);
export const samlifyForTests = require('samlify') as SamlifyForTests;
samlifyForTests.setSchemaValidator(require('@authenio/samlify-node-xmllint') as { validate(xml: string): Promise<unknown> });

export interface ExternalIdp {
  entityId: string;
  /** Its SAML 2.0 metadata (what a customer gives a service provider). */
  metadata: string;
  ssoUrl: string;
  keys: KeyAndCertificate;
  /** Parses (and, the SP metadata asking for it, verifies) an HTTP-Redirect AuthnRequest; its ID. */
  readRequest(spMetadata: string, location: string): Promise<string>;
  /** A signed Response (base64) for the SP of `spMetadata`; `values` override the template's tags (Audience, Destination, NotOnOrAfter…). */
  respond(spMetadata: string, options: { inResponseTo?: string; nameId: string; email: string; givenName?: string; values?: Record<string, string | null>; signResponse?: boolean }): Promise<string>;
}

/** An external SAML identity provider made with samlify, signing with its own key. */
export function externalIdp(keys: KeyAndCertificate, entityId = 'https://idp.example.com/metadata', ssoUrl = 'https://idp.example.com/sso'): ExternalIdp {
  const idp = samlifyForTests.IdentityProvider({
    entityID: entityId,
    privateKey: keys.privateKeyPem,
    signingCert: keys.certificateBase64,
    wantAuthnRequestsSigned: true,
    nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    singleSignOnService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: ssoUrl }],
    singleLogoutService: [{ Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: `${ssoUrl}/logout` }],
    loginResponseTemplate: {
      context: (require('samlify') as { SamlLib: { defaultLoginResponseTemplate: { context: string } } }).SamlLib.defaultLoginResponseTemplate.context,
      attributes: [
        { name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', valueTag: 'email', nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri', valueXsiType: 'xs:string' },
        { name: 'given_name', valueTag: 'givenName', nameFormat: 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic', valueXsiType: 'xs:string' },
      ],
    },
  });
  return {
    entityId,
    metadata: (idp as unknown as { getMetadata(): string }).getMetadata(),
    ssoUrl,
    keys,
    async readRequest(spMetadata, location) {
      const url = new URL(location);
      const raw = url.search.slice(1);
      const pick = (name: string) => raw.split('&').find((p) => p.startsWith(`${name}=`));
      const octetString = ['SAMLRequest', 'RelayState', 'SigAlg'].map(pick).filter((p) => p !== undefined).join('&');
      const sp = samlifyForTests.ServiceProvider({ metadata: spMetadata });
      const parsed = await idp.parseLoginRequest(sp, 'redirect', { query: Object.fromEntries(url.searchParams), octetString });
      return parsed.extract.request.id;
    },
    async respond(spMetadata, options) {
      const sp = samlifyForTests.ServiceProvider({ metadata: spMetadata, ...(options.signResponse && { wantMessageSigned: true }) });
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const acs = /AssertionConsumerService[^>]*Location="([^"]+)"/.exec(spMetadata)![1]!.replace(/&amp;/g, '&');
      const audience = /entityID="([^"]+)"/.exec(spMetadata)![1]!;
      const replace = (template: string) => {
        const id = `_${randomBytes(16).toString('hex')}`;
        const values: Record<string, string | null> = {
          ID: id,
          AssertionID: `_${randomBytes(16).toString('hex')}`,
          Destination: acs,
          Audience: audience,
          SubjectRecipient: acs,
          Issuer: entityId,
          IssueInstant: now.toISOString(),
          StatusCode: 'urn:oasis:names:tc:SAML:2.0:status:Success',
          ConditionsNotBefore: now.toISOString(),
          ConditionsNotOnOrAfter: later,
          SubjectConfirmationDataNotOnOrAfter: later,
          NameIDFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
          NameID: options.nameId,
          InResponseTo: options.inResponseTo ?? null,
          AuthnStatement: `<saml:AuthnStatement AuthnInstant="${now.toISOString()}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
          attrEmail: options.email,
          attrGivenName: options.givenName ?? 'Grace',
          ...options.values,
        };
        // samlify escapes every value; the AuthnStatement is markup, put in after.
        const statement = values.AuthnStatement!;
        values.AuthnStatement = '@@AUTHN@@';
        return { id, context: samlifyForTests.SamlLib.replaceTagsByValue(template, values).replace('@@AUTHN@@', statement) };
      };
      const { context } = await idp.createLoginResponse(sp, {}, 'post', { email: options.email }, replace);
      return context;
    },
  };
}
