/**
 * XML signatures of SAML messages, through the libraries made for them:
 * xml-crypto (>= 6.1.2, the release that fixed the signature-wrapping and
 * KeyInfo advisories) for enveloped signatures, samlify's SamlLib for the
 * detached signatures of the HTTP-Redirect binding. Nothing here computes or
 * compares a signature by hand.
 *
 * Verification answers with what the signature covered, never with the
 * document it arrived in: `verifyEnvelopedSignature` returns the element
 * rebuilt from xml-crypto's `getSignedReferences()` (the bytes that were
 * digested), so a second, unsigned element placed beside or around the signed
 * one (signature wrapping) is never read. The key is always the configured
 * certificate; a certificate inside the message's KeyInfo is ignored.
 */
import { samlify } from './samlify.js';
import { SignedXml } from './xml-crypto.js';
import type { KeyObject } from 'node:crypto';
import { toPem } from '../crypto/certificates.js';
import { childrenNamed, parseXml, XmlRefusal, type Element } from './parse.js';


export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

/** The algorithms a SAML party may choose by name (the service's `signatureAlgorithm` and `digestAlgorithm` settings). */
export const SIGNATURE_ALGORITHMS = {
  'rsa-sha256': 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'rsa-sha1': 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
} as const;
export const DIGEST_ALGORITHMS = {
  sha256: 'http://www.w3.org/2001/04/xmlenc#sha256',
  sha1: 'http://www.w3.org/2000/09/xmldsig#sha1',
} as const;
export type SignatureAlgorithmName = keyof typeof SIGNATURE_ALGORITHMS;
export type DigestAlgorithmName = keyof typeof DIGEST_ALGORITHMS;

/** Signature algorithms accepted on messages others sign (RSA with SHA-1 or SHA-256; never HMAC). */
const ACCEPTED_SIGNATURE_URIS: ReadonlySet<string> = new Set(Object.values(SIGNATURE_ALGORITHMS));

export interface SigningKey {
  privateKeyPem: string;
  /** The same key parsed once: parsing the PEM again costs more than the signature itself. */
  privateKey?: KeyObject;
  /** The certificate published with the key (PEM); it goes into the signature's KeyInfo. */
  certificatePem: string;
}

/**
 * The KeyInfo content of a certificate, as xml-crypto makes it, made once per
 * certificate: xml-crypto would otherwise scan the PEM at every signature.
 */
const keyInfoContents = new Map<string, string | null>();
function keyInfoContent(certificatePem: string): string | null {
  let content = keyInfoContents.get(certificatePem);
  if (content === undefined) {
    content = SignedXml().getKeyInfoContent({ publicCert: certificatePem, prefix: 'ds' });
    if (keyInfoContents.size > 100) keyInfoContents.clear();
    keyInfoContents.set(certificatePem, content);
  }
  return content;
}

/** An absolute XPath to an element by the local names of it and its ancestors (no `//` walk of the document). */
const absolutePath = (localNames: readonly string[]) => localNames.map((name) => `/*[local-name(.)='${name}']`).join('');

/**
 * Signs the element at `path` (the local names from the root down, e.g.
 * `['Response', 'Assertion']`) of `xml` with an enveloped signature
 * (exclusive c14n) referencing its ID. SAML 2.0 places the signature right
 * after the element's Issuer (Core §5.4.1; the default); SAML 1.1 names the
 * ID `AssertionID` and puts the signature last (`{ idAttribute, placement:
 * 'last' }`).
 */
export function signEnveloped(
  xml: string,
  path: readonly string[],
  key: SigningKey,
  algorithms: { signature: SignatureAlgorithmName; digest: DigestAlgorithmName },
  options: { idAttribute?: string; placement?: 'after-issuer' | 'last' } = {},
): string {
  if (!path.every((name) => /^[A-Za-z][A-Za-z0-9]*$/.test(name))) throw new Error('a path to sign is made of element local names');
  const signed = new (SignedXml())({
    privateKey: key.privateKey ?? key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: SIGNATURE_ALGORITHMS[algorithms.signature],
    canonicalizationAlgorithm: EXC_C14N,
    getKeyInfoContent: () => keyInfoContent(key.certificatePem),
    ...(options.idAttribute !== undefined && { idAttribute: options.idAttribute }),
  });
  const target = absolutePath(path);
  signed.addReference({ xpath: target, digestAlgorithm: DIGEST_ALGORITHMS[algorithms.digest], transforms: [ENVELOPED, EXC_C14N] });
  const location = options.placement === 'last' ? { reference: target, action: 'append' as const } : { reference: `${target}/*[local-name(.)='Issuer']`, action: 'after' as const };
  signed.computeSignature(xml, { prefix: 'ds', location });
  return signed.getSignedXml();
}

/** A certificate given as PEM, or as the base64 of its DER (as SAML metadata and the service's settings carry it), as PEM. */
export function certificatePem(certificate: string): string {
  return toPem(Buffer.from(certificateBase64(certificate), 'base64'), 'CERTIFICATE');
}

/** The base64 of a certificate's DER, from PEM or base64. */
export function certificateBase64(certificate: string): string {
  return certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

/**
 * Verifies the enveloped signature that is a direct child of `signed` (the
 * message's root, or its Assertion) with `certificate`, and returns the
 * element the signature covered, parsed from the signed bytes. Refused
 * (XmlRefusal): no signature, several, an algorithm other than RSA-SHA1/256,
 * a reference to anything but `signed` itself, a digest or signature that
 * does not verify.
 */
export function verifyEnvelopedSignature(xml: string, signed: Element, certificate: string): Element {
  const signatures = childrenNamed(signed, DSIG_NS, 'Signature');
  if (signatures.length === 0) throw new XmlRefusal(`the ${signed.localName} is not signed`);
  if (signatures.length > 1) throw new XmlRefusal(`the ${signed.localName} has more than one signature`);
  const id = signed.getAttribute('ID');
  if (!id) throw new XmlRefusal(`the signed ${signed.localName} has no ID`);
  const verifier = new (SignedXml())({ publicCert: certificatePem(certificate), getCertFromKeyInfo: () => null });
  verifier.loadSignature(signatures[0]!);
  if (!ACCEPTED_SIGNATURE_URIS.has(verifier.signatureAlgorithm ?? '')) {
    throw new XmlRefusal(`signature algorithm not accepted: ${verifier.signatureAlgorithm}`);
  }
  const references = verifier.getReferences();
  if (references.length !== 1 || references[0]!.uri !== `#${id}`) {
    throw new XmlRefusal(`the signature must cover exactly the signed ${signed.localName}`);
  }
  let valid: boolean;
  try {
    valid = verifier.checkSignature(xml);
  } catch {
    // xml-crypto's message quotes the signature and digest values: not for the sender's eyes.
    throw new XmlRefusal('the signature does not verify');
  }
  if (!valid) throw new XmlRefusal('the signature does not verify');
  const covered = verifier.getSignedReferences();
  if (covered.length !== 1) throw new XmlRefusal('the signature must cover exactly one element');
  const element = parseXml(covered[0]!).documentElement!;
  if (element.localName !== signed.localName || element.namespaceURI !== signed.namespaceURI || element.getAttribute('ID') !== id) {
    throw new XmlRefusal(`the signature does not cover the ${signed.localName}`);
  }
  return element;
}

/**
 * Verifies the detached signature of an HTTP-Redirect binding message (SAML
 * Bindings §3.4.4.1): `octets` is `SAMLRequest=…&RelayState=…&SigAlg=…`
 * exactly as URL-encoded in the query string received.
 */
export function verifyRedirectSignature(octets: string, signatureBase64: string, sigAlg: string, certificate: string): boolean {
  if (!ACCEPTED_SIGNATURE_URIS.has(sigAlg)) return false;
  try {
    const metadata = { getX509Certificate: () => certificateBase64(certificate) };
    return samlify().SamlLib.verifyMessageSignature(metadata, octets, Buffer.from(signatureBase64, 'base64'), sigAlg);
  } catch {
    return false;
  }
}

/** The detached signature (base64) of an HTTP-Redirect binding message's octets. */
export function signRedirect(octets: string, key: SigningKey, algorithm: SignatureAlgorithmName): string {
  return String(samlify().SamlLib.constructMessageSignature(octets, key.privateKeyPem, undefined, true, SIGNATURE_ALGORITHMS[algorithm]));
}
