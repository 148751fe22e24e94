/**
 * Inbound SAML protocol messages from service providers (SAML Core §3.4
 * AuthnRequest, §3.7 LogoutRequest) in their two bindings (SAML Bindings
 * §3.4 HTTP-Redirect: base64 of raw DEFLATE in the query, a detached
 * signature over the query's octets; §3.5 HTTP-POST: base64 in a form, an
 * enveloped signature):
 *
 * - decoded with bounds (the inflated size is capped: no deflate bomb);
 * - parsed by ../../platform/xml/parse.ts: no DOCTYPE, no entities;
 * - when the addon names the SP's certificate (`signingCert`), the message
 *   must be signed with it, and only what the signature covered is read;
 * - the fields read are checked for shape: exactly one of each element the
 *   profile allows once, text-only values (no comment inside an Issuer or a
 *   NameID).
 *
 * A refusal is a SamlRefusal; the endpoint shows it as an error page and
 * never posts anything to an address from a refused message.
 */
import { inflateRawSync } from 'node:zlib';
import { childElements, onlyChild, parseXml, textOf, XmlRefusal, type Element } from '../../platform/xml/parse.js';
import { verifyEnvelopedSignature, verifyRedirectSignature } from '../../platform/xml/signatures.js';

export const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
export const ASSERTION_NS = 'urn:oasis:names:tc:SAML:2.0:assertion';
const MAX_INFLATED_BYTES = 128 * 1024;

export class SamlRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SamlRefusal';
  }
}

export type Binding = 'redirect' | 'post';

/** The message as it arrived: its binding, the form or query values, and (Redirect) the raw query string. */
export interface InboundMessage {
  binding: Binding;
  /** `SAMLRequest` (base64; DEFLATE first for Redirect). */
  message: string;
  relayState?: string;
  sigAlg?: string;
  signature?: string;
  /** Redirect binding: the query string exactly as received (the signed octets are cut from it). */
  rawQuery?: string;
}

/**
 * The octets a Redirect binding signature covers (SAML Bindings §3.4.4.1):
 * `SAMLRequest=…&RelayState=…&SigAlg=…` (RelayState only when sent), each
 * value exactly as URL-encoded in the query string received.
 */
export function redirectOctets(rawQuery: string, messageName: 'SAMLRequest' | 'SAMLResponse'): string | undefined {
  const raw = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = decodeURIComponent(part.slice(0, eq).replace(/\+/g, ' '));
    if (raw.has(name)) return undefined;
    raw.set(name, part.slice(eq + 1));
  }
  const message = raw.get(messageName);
  const sigAlg = raw.get('SigAlg');
  if (message === undefined || sigAlg === undefined) return undefined;
  const relayState = raw.get('RelayState');
  return `${messageName}=${message}${relayState !== undefined ? `&RelayState=${relayState}` : ''}&SigAlg=${sigAlg}`;
}

/**
 * The XML of the message. HTTP-POST carries it uncompressed (SAML Bindings
 * §3.5.4); some SP libraries (node-saml's `getAuthorizeMessageAsync`) DEFLATE
 * it anyway, so a POSTed message that does not start as XML is inflated, with
 * the same bound.
 */
function decode(inbound: InboundMessage): string {
  const bytes = Buffer.from(inbound.message, 'base64');
  if (bytes.length === 0) throw new SamlRefusal('The SAML message is empty or not base64.');
  if (inbound.binding === 'post' && /^\s*</.test(bytes.subarray(0, 64).toString('utf8').replace(/^\uFEFF/, ''))) return bytes.toString('utf8');
  try {
    return inflateRawSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES }).toString('utf8');
  } catch {
    throw new SamlRefusal('The SAML message must be XML, or DEFLATE-compressed XML of at most 128 KiB.');
  }
}

/**
 * The message's root element, after its signature when `certificate` is set:
 * for HTTP-POST, the root as the enveloped signature covered it; for
 * HTTP-Redirect, the detached signature over the octets must verify.
 */
function verifiedRoot(inbound: InboundMessage, certificate: string | undefined): Element {
  let xml: string;
  try {
    xml = decode(inbound);
    const root = parseXml(xml).documentElement!;
    if (certificate === undefined) return root;
    if (inbound.binding === 'post') return verifyEnvelopedSignature(xml, root, certificate);
  } catch (error) {
    if (error instanceof XmlRefusal) throw new SamlRefusal(`The SAML message was refused: ${error.message}.`);
    throw error;
  }
  const octets = inbound.rawQuery === undefined ? undefined : redirectOctets(inbound.rawQuery, 'SAMLRequest');
  if (inbound.signature === undefined || inbound.sigAlg === undefined || octets === undefined) {
    throw new SamlRefusal('The SAML message must be signed (SigAlg and Signature): the application has a signing certificate.');
  }
  if (!verifyRedirectSignature(octets, inbound.signature, inbound.sigAlg, certificate)) {
    throw new SamlRefusal('The signature of the SAML message does not verify.');
  }
  return parseXml(xml).documentElement!;
}

function expectRoot(root: Element, localName: string): void {
  if (root.namespaceURI !== PROTOCOL_NS || root.localName !== localName) throw new SamlRefusal(`Expected a samlp:${localName}.`);
  if (root.getAttribute('Version') !== '2.0') throw new SamlRefusal('Only SAML 2.0 messages are accepted.');
  const id = root.getAttribute('ID');
  if (!id || id.length > 256) throw new SamlRefusal(`The ${localName} has no usable ID.`);
}

function text(parent: Element, ns: string, localName: string): string | undefined {
  try {
    const element = onlyChild(parent, ns, localName);
    return element === undefined ? undefined : textOf(element).trim();
  } catch (error) {
    if (error instanceof XmlRefusal) throw new SamlRefusal(`The SAML message was refused: ${error.message}.`);
    throw error;
  }
}

const optionalAttribute = (element: Element, name: string): string | undefined => (element.hasAttribute(name) ? element.getAttribute(name)! : undefined);

export interface AuthnRequest {
  id: string;
  issuer?: string;
  destination?: string;
  assertionConsumerServiceUrl?: string;
  protocolBinding?: string;
  forceAuthn: boolean;
  isPassive: boolean;
}

/** An AuthnRequest (SAML Core §3.4.1), verified against the SP's certificate when one is configured. */
export function readAuthnRequest(inbound: InboundMessage, certificate: string | undefined): AuthnRequest {
  const root = verifiedRoot(inbound, certificate);
  expectRoot(root, 'AuthnRequest');
  if (root.hasAttribute('AssertionConsumerServiceIndex')) {
    throw new SamlRefusal('AssertionConsumerServiceIndex is not supported: send AssertionConsumerServiceURL.');
  }
  const request: AuthnRequest = {
    id: root.getAttribute('ID')!,
    forceAuthn: root.getAttribute('ForceAuthn') === 'true' || root.getAttribute('ForceAuthn') === '1',
    isPassive: root.getAttribute('IsPassive') === 'true' || root.getAttribute('IsPassive') === '1',
  };
  const issuer = text(root, ASSERTION_NS, 'Issuer');
  if (issuer) request.issuer = issuer;
  const destination = optionalAttribute(root, 'Destination');
  if (destination !== undefined) request.destination = destination;
  const acs = optionalAttribute(root, 'AssertionConsumerServiceURL');
  if (acs !== undefined) request.assertionConsumerServiceUrl = acs;
  const binding = optionalAttribute(root, 'ProtocolBinding');
  if (binding !== undefined) request.protocolBinding = binding;
  return request;
}

export interface LogoutRequest {
  id: string;
  issuer?: string;
  destination?: string;
  nameId: string;
  sessionIndexes: string[];
}

/** A LogoutRequest (SAML Core §3.7.1), verified against the SP's certificate when one is configured. */
export function readLogoutRequest(inbound: InboundMessage, certificate: string | undefined): LogoutRequest {
  const root = verifiedRoot(inbound, certificate);
  expectRoot(root, 'LogoutRequest');
  const nameId = text(root, ASSERTION_NS, 'NameID');
  if (nameId === undefined) throw new SamlRefusal('The LogoutRequest has no NameID.');
  const sessionIndexes = childElements(root)
    .filter((e) => e.namespaceURI === PROTOCOL_NS && e.localName === 'SessionIndex')
    .map((e) => {
      try {
        return textOf(e).trim();
      } catch {
        throw new SamlRefusal('The SessionIndex must be text.');
      }
    });
  const request: LogoutRequest = { id: root.getAttribute('ID')!, nameId, sessionIndexes };
  const issuer = text(root, ASSERTION_NS, 'Issuer');
  if (issuer) request.issuer = issuer;
  const destination = optionalAttribute(root, 'Destination');
  if (destination !== undefined) request.destination = destination;
  return request;
}
