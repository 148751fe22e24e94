/**
 * The token of WS-Federation passive sign-in (WS-Federation 1.2 §13;
 * authentication-api-wire-notes §14): a `RequestSecurityTokenResponse`
 * (WS-Trust 2005/02) carrying a SAML 1.1 assertion signed with the tenant's
 * key, its signature last, referencing the `AssertionID` (SAML 1.1 Core
 * §5.4). Built as a DOM tree (values are escaped by the serialiser), signed
 * by xml-crypto through ../../platform/xml/signatures.ts.
 *
 * The attributes are the samlp addon's (../samlp/attributes.ts): a SAML 1.1
 * attribute is a namespace and a name, so each claim URI is split at its last
 * `/` (`http://schemas.xmlsoap.org/ws/2005/05/identity/claims` +
 * `emailaddress`); a name without one is left out.
 */
import type { SamlpSettings } from '../../domain/clients/samlp-addon.js';
import { signEnveloped, type SigningKey } from '../../platform/xml/signatures.js';
import type { Attributes } from '../samlp/attributes.js';
import { Builder, instant, newSamlId } from '../samlp/xml-messages.js';

const TRUST_NS = 'http://schemas.xmlsoap.org/ws/2005/02/trust';
const SAML11_NS = 'urn:oasis:names:tc:SAML:1.0:assertion';
const WSU_NS = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const WSP_NS = 'http://schemas.xmlsoap.org/ws/2004/09/policy';
const WSA_NS = 'http://www.w3.org/2005/08/addressing';
const BEARER = 'urn:oasis:names:tc:SAML:1.0:cm:bearer';

export interface WsfedToken {
  issuer: string;
  /** The realm (`wtrealm`): the audience. */
  realm: string;
  nameId: string;
  attributes: Attributes;
  /** Seconds since the epoch: the login. */
  authnInstant: number;
  now: number;
  settings: SamlpSettings;
}

/** The `wresult` of a sign-in: the RSTR with the signed SAML 1.1 assertion. */
export function wsfedResult(input: WsfedToken, key: SigningKey): string {
  const { settings, now } = input;
  const expires = instant(now + settings.lifetimeInSeconds * 1000);
  const builder = new Builder('RequestSecurityTokenResponse', TRUST_NS, 't:RequestSecurityTokenResponse');
  const { root } = builder;
  const lifetime = builder.element(root, TRUST_NS, 't:Lifetime');
  builder.element(lifetime, WSU_NS, 'wsu:Created', {}, instant(now));
  builder.element(lifetime, WSU_NS, 'wsu:Expires', {}, expires);
  const appliesTo = builder.element(root, WSP_NS, 'wsp:AppliesTo');
  const reference = builder.element(appliesTo, WSA_NS, 'wsa:EndpointReference');
  builder.element(reference, WSA_NS, 'wsa:Address', {}, input.realm);
  const token = builder.element(root, TRUST_NS, 't:RequestedSecurityToken');

  const assertion = builder.element(token, SAML11_NS, 'saml:Assertion', {
    MajorVersion: '1',
    MinorVersion: '1',
    AssertionID: newSamlId(),
    Issuer: input.issuer,
    IssueInstant: instant(now),
  });
  const conditions = builder.element(assertion, SAML11_NS, 'saml:Conditions', { NotBefore: instant(now), NotOnOrAfter: expires });
  const audience = builder.element(conditions, SAML11_NS, 'saml:AudienceRestrictionCondition');
  builder.element(audience, SAML11_NS, 'saml:Audience', {}, input.realm);
  const subject = (parent: ReturnType<Builder['element']>) => {
    const element = builder.element(parent, SAML11_NS, 'saml:Subject');
    builder.element(element, SAML11_NS, 'saml:NameIdentifier', { Format: settings.nameIdentifierFormat }, input.nameId);
    const confirmation = builder.element(element, SAML11_NS, 'saml:SubjectConfirmation');
    builder.element(confirmation, SAML11_NS, 'saml:ConfirmationMethod', {}, BEARER);
  };
  const statement = builder.element(assertion, SAML11_NS, 'saml:AttributeStatement');
  subject(statement);
  for (const [name, values] of input.attributes) {
    const slash = name.lastIndexOf('/');
    if (slash <= 0 || slash === name.length - 1) continue;
    const attribute = builder.element(statement, SAML11_NS, 'saml:Attribute', { AttributeNamespace: name.slice(0, slash), AttributeName: name.slice(slash + 1) });
    for (const value of values) builder.element(attribute, SAML11_NS, 'saml:AttributeValue', {}, String(value));
  }
  const authn = builder.element(assertion, SAML11_NS, 'saml:AuthenticationStatement', {
    AuthenticationMethod: 'urn:oasis:names:tc:SAML:1.0:am:password',
    AuthenticationInstant: instant(input.authnInstant * 1000),
  });
  subject(authn);

  builder.element(root, TRUST_NS, 't:TokenType', {}, 'urn:oasis:names:tc:SAML:1.0:assertion');
  builder.element(root, TRUST_NS, 't:RequestType', {}, 'http://schemas.xmlsoap.org/ws/2005/02/trust/Issue');
  builder.element(root, TRUST_NS, 't:KeyType', {}, 'http://schemas.xmlsoap.org/ws/2005/05/identity/NoProofKey');
  return signEnveloped(
    builder.serialise(),
    ['RequestSecurityTokenResponse', 'RequestedSecurityToken', 'Assertion'],
    key,
    { signature: settings.signatureAlgorithm, digest: settings.digestAlgorithm },
    { idAttribute: 'AssertionID', placement: 'last' },
  );
}
