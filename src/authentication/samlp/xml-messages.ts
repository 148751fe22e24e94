/**
 * The SAML messages the identity provider sends, built as DOM trees (every
 * value set as an attribute or a text node, so the serialiser escapes it:
 * no markup can be injected through a user's name or an SP's RelayState),
 * then signed by ../../platform/xml/signatures.ts.
 *
 * - Response (SAML Core §3.3.3, Web Browser SSO profile §4.1.4.2): Issuer,
 *   Status, one Assertion with the bearer SubjectConfirmation (Recipient,
 *   NotOnOrAfter, InResponseTo), Conditions (NotBefore, NotOnOrAfter,
 *   AudienceRestriction), the AuthnStatement with its SessionIndex and the
 *   AttributeStatement. Signed on the Assertion, or on the Response with
 *   `signResponse`; the Assertion then encrypted to the SP's `encryptionCert`
 *   when set (signed first).
 * - A Response carrying only an error status (`NoPassive`).
 * - LogoutRequest and LogoutResponse (SAML Core §3.7), signed.
 */
import { randomBytes } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import type { SamlpSettings } from '../../domain/clients/samlp-addon.js';
import { deflateRawSync } from 'node:zlib';
import { encryptElement } from '../../platform/xml/encryption.js';
import { childrenNamed, parseXml, xmldom } from '../../platform/xml/parse.js';
import { certificatePem, SIGNATURE_ALGORITHMS, signEnveloped, signRedirect, type SigningKey } from '../../platform/xml/signatures.js';
import type { Attributes, AttributeValue } from './attributes.js';
import { ASSERTION_NS, PROTOCOL_NS } from './messages.js';

const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
const XS_NS = 'http://www.w3.org/2001/XMLSchema';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const URI_NAME_FORMAT = 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
export const STATUS = {
  success: 'urn:oasis:names:tc:SAML:2.0:status:Success',
  responder: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
  requester: 'urn:oasis:names:tc:SAML:2.0:status:Requester',
  noPassive: 'urn:oasis:names:tc:SAML:2.0:status:NoPassive',
} as const;

/** `_` and 20 random bytes in hex: an NCName, unguessable. */
export const newSamlId = (): string => `_${randomBytes(20).toString('hex')}`;

export const instant = (ms: number): string => new Date(ms).toISOString();

/** A document built node by node: values only ever become attribute values or text nodes. */
export class Builder {
  readonly document: Document;
  readonly root: Element;

  /** A SAML protocol message `samlp:{localName}`, or any root element given its namespace and qualified name. */
  constructor(localName: string, ns = PROTOCOL_NS, qualifiedName = `samlp:${localName}`) {
    this.document = new (xmldom().DOMImplementation)().createDocument(ns, qualifiedName, null);
    this.root = this.document.documentElement!;
  }

  element(parent: Element, ns: string, qualifiedName: string, attributes: Record<string, string | undefined> = {}, text?: string): Element {
    const element = this.document.createElementNS(ns, qualifiedName);
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
    if (text !== undefined) element.appendChild(this.document.createTextNode(text));
    parent.appendChild(element);
    return element;
  }

  serialise(): string {
    return new (xmldom().XMLSerializer)().serializeToString(this.document);
  }
}

/** The header of every protocol message: its attributes, then the Issuer. */
function header(builder: Builder, attributes: Record<string, string | undefined>, issuer: string): void {
  for (const [name, value] of Object.entries({ Version: '2.0', ...attributes })) if (value !== undefined) builder.root.setAttribute(name, value);
  builder.element(builder.root, ASSERTION_NS, 'saml:Issuer', {}, issuer);
}

function status(builder: Builder, code: string, subCode?: string, message?: string): void {
  const element = builder.element(builder.root, PROTOCOL_NS, 'samlp:Status');
  const top = builder.element(element, PROTOCOL_NS, 'samlp:StatusCode', { Value: code });
  if (subCode !== undefined) builder.element(top, PROTOCOL_NS, 'samlp:StatusCode', { Value: subCode });
  if (message !== undefined) builder.element(element, PROTOCOL_NS, 'samlp:StatusMessage', {}, message);
}

function xsiType(value: AttributeValue, typed: boolean): string {
  if (!typed) return 'xs:anyType';
  if (typeof value === 'boolean') return 'xs:boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'xs:integer' : 'xs:double';
  return 'xs:string';
}

export interface LoginResponse {
  issuer: string;
  /** The ACS URL, where the browser posts the Response. */
  acs: string;
  inResponseTo?: string;
  audience: string;
  nameId: string;
  sessionIndex: string;
  /** Seconds since the epoch: when the user logged in. */
  authnInstant: number;
  now: number;
  settings: SamlpSettings;
  attributes: Attributes;
}

/** A signed samlp:Response for a logged-in user, as XML text. */
export async function loginResponse(input: LoginResponse, key: SigningKey): Promise<string> {
  const { settings, now } = input;
  const builder = new Builder('Response');
  const responseId = newSamlId();
  const assertionId = newSamlId();
  const notOnOrAfter = instant(now + settings.lifetimeInSeconds * 1000);
  header(builder, { ID: responseId, InResponseTo: input.inResponseTo, IssueInstant: instant(now), Destination: settings.destination ?? input.acs }, input.issuer);
  status(builder, STATUS.success);

  const assertion = builder.element(builder.root, ASSERTION_NS, 'saml:Assertion', { Version: '2.0', ID: assertionId, IssueInstant: instant(now) });
  builder.element(assertion, ASSERTION_NS, 'saml:Issuer', {}, input.issuer);
  const subject = builder.element(assertion, ASSERTION_NS, 'saml:Subject');
  builder.element(subject, ASSERTION_NS, 'saml:NameID', { Format: settings.nameIdentifierFormat }, input.nameId);
  const confirmation = builder.element(subject, ASSERTION_NS, 'saml:SubjectConfirmation', { Method: BEARER });
  builder.element(confirmation, ASSERTION_NS, 'saml:SubjectConfirmationData', {
    NotOnOrAfter: notOnOrAfter,
    Recipient: settings.recipient ?? input.acs,
    InResponseTo: input.inResponseTo,
  });
  const conditions = builder.element(assertion, ASSERTION_NS, 'saml:Conditions', { NotBefore: instant(now), NotOnOrAfter: notOnOrAfter });
  const restriction = builder.element(conditions, ASSERTION_NS, 'saml:AudienceRestriction');
  builder.element(restriction, ASSERTION_NS, 'saml:Audience', {}, input.audience);
  const authn = builder.element(assertion, ASSERTION_NS, 'saml:AuthnStatement', { AuthnInstant: instant(input.authnInstant * 1000), SessionIndex: input.sessionIndex });
  const context = builder.element(authn, ASSERTION_NS, 'saml:AuthnContext');
  builder.element(context, ASSERTION_NS, 'saml:AuthnContextClassRef', {}, settings.authnContextClassRef);

  if (input.attributes.size > 0) {
    const statement = builder.element(assertion, ASSERTION_NS, 'saml:AttributeStatement');
    statement.setAttributeNS(XMLNS_NS, 'xmlns:xs', XS_NS);
    statement.setAttributeNS(XMLNS_NS, 'xmlns:xsi', XSI_NS);
    for (const [name, values] of input.attributes) {
      const attribute = builder.element(statement, ASSERTION_NS, 'saml:Attribute', {
        Name: name,
        NameFormat: settings.includeAttributeNameFormat ? URI_NAME_FORMAT : undefined,
      });
      for (const value of values) {
        const element = builder.element(attribute, ASSERTION_NS, 'saml:AttributeValue', {}, String(value));
        element.setAttributeNS(XSI_NS, 'xsi:type', xsiType(value, settings.typedAttributes));
      }
    }
  }
  const algorithms = { signature: settings.signatureAlgorithm, digest: settings.digestAlgorithm };
  if (settings.encryptionCert === undefined) {
    return signEnveloped(builder.serialise(), settings.signResponse ? ['Response'] : ['Response', 'Assertion'], key, algorithms);
  }
  // Signed, then encrypted (the SP decrypts, then checks the signature); with signResponse the Response is signed last.
  const assertionSigned = settings.signResponse ? builder.serialise() : signEnveloped(builder.serialise(), ['Response', 'Assertion'], key, algorithms);
  const encrypted = await encryptAssertion(assertionSigned, certificatePem(settings.encryptionCert));
  return settings.signResponse ? signEnveloped(encrypted, ['Response'], key, algorithms) : encrypted;
}

/** The Response with its Assertion replaced by an EncryptedAssertion to `certificate` (SAML Core §2.3.4). */
async function encryptAssertion(xml: string, certificate: string): Promise<string> {
  const document = parseXml(xml);
  const assertion = childrenNamed(document.documentElement!, ASSERTION_NS, 'Assertion')[0]!;
  const encrypted = await encryptElement(new (xmldom().XMLSerializer)().serializeToString(assertion), certificate);
  const wrapper = parseXml(`<saml:EncryptedAssertion xmlns:saml="${ASSERTION_NS}">${encrypted}</saml:EncryptedAssertion>`).documentElement!;
  document.documentElement!.replaceChild(document.importNode(wrapper, true), assertion);
  return new (xmldom().XMLSerializer)().serializeToString(document);
}

/** A samlp:Response carrying only a status (no assertion), signed. */
export function statusResponse(
  input: { issuer: string; acs: string; inResponseTo?: string; now: number; code: string; subCode?: string; message?: string; settings: SamlpSettings },
  key: SigningKey,
): string {
  const builder = new Builder('Response');
  const id = newSamlId();
  header(builder, { ID: id, InResponseTo: input.inResponseTo, IssueInstant: instant(input.now), Destination: input.acs }, input.issuer);
  status(builder, input.code, input.subCode, input.message);
  return signEnveloped(builder.serialise(), ['Response'], key, { signature: input.settings.signatureAlgorithm, digest: input.settings.digestAlgorithm });
}

/**
 * Signs a protocol message for the HTTP-POST binding (enveloped signature);
 * for HTTP-Redirect (`key` undefined) the message stays unsigned, as the
 * signature then goes into the query (SAML Bindings §3.4.4.1).
 */
type Algorithms = Pick<SamlpSettings, 'signatureAlgorithm' | 'digestAlgorithm'>;

function finish(builder: Builder, key: SigningKey | undefined, settings: Algorithms): string {
  const xml = builder.serialise();
  return key === undefined ? xml : signEnveloped(xml, [builder.root.localName!], key, { signature: settings.signatureAlgorithm, digest: settings.digestAlgorithm });
}

/** A samlp:LogoutResponse (SAML Core §3.7.2), signed for HTTP-POST (see `finish`). */
export function logoutResponse(
  input: { issuer: string; destination: string; inResponseTo: string; now: number; code: string; settings: SamlpSettings },
  key: SigningKey | undefined,
): string {
  const builder = new Builder('LogoutResponse');
  const id = newSamlId();
  header(builder, { ID: id, InResponseTo: input.inResponseTo, IssueInstant: instant(input.now), Destination: input.destination }, input.issuer);
  status(builder, input.code);
  return finish(builder, key, input.settings);
}

/** A samlp:LogoutRequest (SAML Core §3.7.1): the IdP tells an SP the session ended. Signed for HTTP-POST (see `finish`). */
export function logoutRequest(
  input: { issuer: string; destination: string; nameId: string; nameIdFormat: string; sessionIndex: string; now: number; settings: SamlpSettings },
  key: SigningKey | undefined,
): string {
  const builder = new Builder('LogoutRequest');
  const id = newSamlId();
  header(builder, { ID: id, IssueInstant: instant(input.now), Destination: input.destination }, input.issuer);
  builder.element(builder.root, ASSERTION_NS, 'saml:NameID', { Format: input.nameIdFormat }, input.nameId);
  builder.element(builder.root, PROTOCOL_NS, 'samlp:SessionIndex', {}, input.sessionIndex);
  return finish(builder, key, input.settings);
}

/** A samlp:AuthnRequest of Gatehouse as service provider (SAML Core §3.4.1). Signed for HTTP-POST when `key` is given (see `finish`). */
export function authnRequest(
  input: { id: string; issuer: string; destination: string; acs: string; now: number; settings: Algorithms },
  key: SigningKey | undefined,
): string {
  const builder = new Builder('AuthnRequest');
  header(builder, { ID: input.id, IssueInstant: instant(input.now), Destination: input.destination, AssertionConsumerServiceURL: input.acs, ProtocolBinding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST' }, input.issuer);
  builder.element(builder.root, PROTOCOL_NS, 'samlp:NameIDPolicy', { AllowCreate: 'true', Format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' });
  return finish(builder, key, input.settings);
}

/** `url` with a signed HTTP-Redirect message in its query (SAML Bindings §3.4.4.1: DEFLATE, base64, then the detached signature). */
export function redirectUrl(url: string, name: 'SAMLRequest' | 'SAMLResponse', xml: string, relayState: string | undefined, key: SigningKey | undefined, settings: Algorithms): string {
  let octets = `${name}=${encodeURIComponent(deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'))}`;
  if (relayState !== undefined) octets += `&RelayState=${encodeURIComponent(relayState)}`;
  if (key !== undefined) {
    octets += `&SigAlg=${encodeURIComponent(SIGNATURE_ALGORITHMS[settings.signatureAlgorithm])}`;
    octets += `&Signature=${encodeURIComponent(signRedirect(octets, key, settings.signatureAlgorithm))}`;
  }
  return `${url}${url.includes('?') ? '&' : '?'}${octets}`;
}
