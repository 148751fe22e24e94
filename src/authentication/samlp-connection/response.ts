/**
 * The SAML Response an external identity provider posts to
 * `/login/callback?connection=…` (SAML Core §3.3.3, Profiles §4.1.4.3), and
 * every check the service provider owes it (the xml-crypto and samlify
 * advisories are the list):
 *
 * - XML without DTD or entities (../../platform/xml/parse.ts);
 * - `Status` Success; exactly one plain `Assertion` (an
 *   `EncryptedAssertion` is refused: Gatehouse publishes no encryption key);
 * - a signature by the connection's certificate over the Response or over
 *   the Assertion, and nothing read but what the signature covered (xml-crypto's
 *   `getSignedReferences`): a second assertion beside the signed one, or a
 *   signed one moved into an unsigned wrapper, is never read (signature
 *   wrapping);
 * - NameID, Issuer and attribute values as text alone: a comment inside a
 *   NameID (which exclusive c14n leaves out of the digest) is refused;
 * - `Destination` (when present) and the bearer `Recipient` equal to this
 *   ACS URL; the `Audience` equal to `urn:auth0:{tenant}:{connection}`;
 *   `NotBefore` / `NotOnOrAfter` of the Conditions and the confirmation
 *   within a small skew of the context's clock;
 * - `InResponseTo` is returned for the caller to match against its pending
 *   request (unknown ones refused there), and the assertion ID for the
 *   replay check.
 */
import { childElements, childrenNamed, hasCommentsOrInstructions, onlyChild, parseXml, textOf, XmlRefusal, type Element } from '../../platform/xml/parse.js';
import { verifyEnvelopedSignature, DSIG_NS } from '../../platform/xml/signatures.js';
import { ASSERTION_NS, PROTOCOL_NS, SamlRefusal } from '../samlp/messages.js';

/** How far the clocks of Gatehouse and an IdP may disagree. */
export const CLOCK_SKEW_MS = 60_000;
const SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

export interface VerifiedLogin {
  assertionId: string;
  issuer: string;
  nameId: string;
  nameIdFormat?: string;
  inResponseTo?: string;
  sessionIndex?: string;
  /** Until when (ms) the assertion could be accepted: how long its ID must be remembered against replay. */
  validUntil: number;
  attributes: Map<string, string[]>;
}

export interface ResponseExpectations {
  /** The IdP's certificate (PEM). */
  certificate: string;
  /** This ACS URL (Destination, Recipient). */
  acs: string;
  audience: string;
  now: number;
}

const refuse = (message: string) => new SamlRefusal(message);

function instant(value: string | null, name: string): number | undefined {
  if (value === null || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) throw refuse(`${name} is not a date and time.`);
  return ms;
}

function only(parent: Element, localName: string, required: true): Element;
function only(parent: Element, localName: string, required?: false): Element | undefined;
function only(parent: Element, localName: string, required = false): Element | undefined {
  const found = onlyChild(parent, ASSERTION_NS, localName);
  if (required && !found) throw refuse(`The assertion has no ${localName}.`);
  return found;
}

/** The signed Assertion: from the signed Response, or the Assertion's own signature. */
function signedAssertion(xml: string, root: Element, certificate: string): { assertion: Element; responseSigned: boolean } {
  if (childrenNamed(root, PROTOCOL_NS, 'EncryptedAssertion').length > 0 || childrenNamed(root, ASSERTION_NS, 'EncryptedAssertion').length > 0) {
    throw refuse('Encrypted assertions are not accepted.');
  }
  const assertions = childrenNamed(root, ASSERTION_NS, 'Assertion');
  if (assertions.length !== 1) throw refuse('The Response must carry exactly one Assertion.');
  if (childrenNamed(root, DSIG_NS, 'Signature').length > 0) {
    const signedRoot = verifyEnvelopedSignature(xml, root, certificate);
    const inside = childrenNamed(signedRoot, ASSERTION_NS, 'Assertion');
    if (inside.length !== 1) throw refuse('The signed Response must carry exactly one Assertion.');
    return { assertion: inside[0]!, responseSigned: true };
  }
  return { assertion: verifyEnvelopedSignature(xml, assertions[0]!, certificate), responseSigned: false };
}

function checkTimes(notBefore: number | undefined, notOnOrAfter: number | undefined, now: number, what: string): void {
  if (notBefore !== undefined && now + CLOCK_SKEW_MS < notBefore) throw refuse(`The ${what} is not yet valid.`);
  if (notOnOrAfter !== undefined && now - CLOCK_SKEW_MS >= notOnOrAfter) throw refuse(`The ${what} has expired.`);
}

function attributesOf(assertion: Element): Map<string, string[]> {
  const attributes = new Map<string, string[]>();
  for (const statement of childrenNamed(assertion, ASSERTION_NS, 'AttributeStatement')) {
    for (const attribute of childrenNamed(statement, ASSERTION_NS, 'Attribute')) {
      const name = attribute.getAttribute('Name');
      if (!name) continue;
      const values = childrenNamed(attribute, ASSERTION_NS, 'AttributeValue').map((v) => textOf(v));
      attributes.set(name, [...(attributes.get(name) ?? []), ...values]);
    }
  }
  return attributes;
}

export function verifyLoginResponse(base64: string, expect: ResponseExpectations): VerifiedLogin {
  try {
    const xml = Buffer.from(base64, 'base64').toString('utf8');
    const root = parseXml(xml).documentElement!;
    if (root.namespaceURI !== PROTOCOL_NS || root.localName !== 'Response') throw refuse('Expected a samlp:Response.');
    if (root.getAttribute('Version') !== '2.0') throw refuse('Only SAML 2.0 responses are accepted.');
    if (hasCommentsOrInstructions(root)) throw refuse('The SAML response was refused: unexpected content (an XML comment or processing instruction).');
    const status = onlyChild(root, PROTOCOL_NS, 'Status');
    const code = status && onlyChild(status, PROTOCOL_NS, 'StatusCode')?.getAttribute('Value');
    if (code !== SUCCESS) throw refuse(`The identity provider did not log the user in (status ${code ?? 'missing'}).`);
    if (root.hasAttribute('Destination') && root.getAttribute('Destination') !== expect.acs) throw refuse('The Destination of the Response is not this ACS URL.');

    const { assertion, responseSigned } = signedAssertion(xml, root, expect.certificate);
    const assertionId = assertion.getAttribute('ID')!;
    const issuer = textOf(only(assertion, 'Issuer', true)).trim();

    const subject = only(assertion, 'Subject', true);
    const nameIdElement = onlyChild(subject, ASSERTION_NS, 'NameID');
    if (!nameIdElement) throw refuse('The assertion has no NameID.');
    const nameId = textOf(nameIdElement).trim();
    if (nameId === '' || nameId.length > 512) throw refuse('The NameID is empty or longer than 512 characters.');

    const confirmations = childrenNamed(subject, ASSERTION_NS, 'SubjectConfirmation').filter((c) => c.getAttribute('Method') === BEARER);
    if (confirmations.length !== 1) throw refuse('The assertion must have exactly one bearer SubjectConfirmation.');
    const data = onlyChild(confirmations[0]!, ASSERTION_NS, 'SubjectConfirmationData');
    if (!data) throw refuse('The bearer SubjectConfirmation has no SubjectConfirmationData.');
    if (data.getAttribute('Recipient') !== expect.acs) throw refuse('The Recipient of the assertion is not this ACS URL.');
    const confirmationExpiry = instant(data.getAttribute('NotOnOrAfter'), 'NotOnOrAfter');
    if (confirmationExpiry === undefined) throw refuse('The bearer SubjectConfirmationData has no NotOnOrAfter.');
    checkTimes(instant(data.getAttribute('NotBefore'), 'NotBefore'), confirmationExpiry, expect.now, 'subject confirmation');

    const conditions = only(assertion, 'Conditions');
    let conditionsExpiry: number | undefined;
    if (conditions) {
      conditionsExpiry = instant(conditions.getAttribute('NotOnOrAfter'), 'NotOnOrAfter');
      checkTimes(instant(conditions.getAttribute('NotBefore'), 'NotBefore'), conditionsExpiry, expect.now, 'assertion');
      for (const restriction of childrenNamed(conditions, ASSERTION_NS, 'AudienceRestriction')) {
        const audiences = childrenNamed(restriction, ASSERTION_NS, 'Audience').map((a) => textOf(a).trim());
        if (!audiences.includes(expect.audience)) throw refuse(`The assertion is for another audience than ${expect.audience}.`);
      }
    }
    if (!conditions || childrenNamed(conditions, ASSERTION_NS, 'AudienceRestriction').length === 0) throw refuse(`The assertion has no AudienceRestriction for ${expect.audience}.`);

    // InResponseTo: the confirmation's (signed), and the Response's when the Response is signed; both must agree.
    const confirmed = data.hasAttribute('InResponseTo') ? data.getAttribute('InResponseTo')! : undefined;
    const answered = responseSigned && root.hasAttribute('InResponseTo') ? root.getAttribute('InResponseTo')! : undefined;
    if (confirmed !== undefined && answered !== undefined && confirmed !== answered) throw refuse('The InResponseTo of the Response and of the assertion differ.');
    if (!responseSigned && root.hasAttribute('InResponseTo') && root.getAttribute('InResponseTo') !== confirmed) {
      throw refuse('The InResponseTo of the Response is not the one the signed assertion confirms.');
    }
    const inResponseTo = confirmed ?? answered;

    const authn = childElements(assertion).find((e) => e.namespaceURI === ASSERTION_NS && e.localName === 'AuthnStatement');
    const login: VerifiedLogin = {
      assertionId,
      issuer,
      nameId,
      validUntil: Math.min(confirmationExpiry, conditionsExpiry ?? confirmationExpiry) + CLOCK_SKEW_MS,
      attributes: attributesOf(assertion),
    };
    const format = nameIdElement.getAttribute('Format');
    if (format) login.nameIdFormat = format;
    if (inResponseTo !== undefined) login.inResponseTo = inResponseTo;
    const sessionIndex = authn?.getAttribute('SessionIndex');
    if (sessionIndex) login.sessionIndex = sessionIndex;
    return login;
  } catch (error) {
    if (error instanceof XmlRefusal) throw refuse(`The SAML response was refused: ${error.message}.`);
    throw error;
  }
}
