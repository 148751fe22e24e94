/**
 * The `samlp` addon of a client (the service's "SAML2 Web App"): its
 * settings, their defaults (authentication-api-wire-notes §14, from the
 * service's "Customize SAML assertions" page), and the rules every value must
 * follow. The Management API refuses a client whose addon breaks a rule
 * (`samlpAddonProblem`), so the identity provider (src/authentication/samlp/)
 * reads only settings that were checked (`samlpSettings`).
 *
 * Where Gatehouse departs from the service's defaults, on purpose:
 * - `signatureAlgorithm` defaults to `rsa-sha256` and `digestAlgorithm` to
 *   `sha256` (the service: rsa-sha1/sha1); SHA-1 only when configured;
 * - members the service does not document are refused rather than stored
 *   and ignored, so a misspelt setting (`signResonse`) is an error, not a
 *   silently unsigned response.
 */
import { X509Certificate, createPublicKey } from 'node:crypto';

export const NAME_ID_FORMATS = [
  'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:transient',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:X509SubjectName',
  'urn:oasis:names:tc:SAML:1.1:nameid-format:WindowsDomainQualifiedName',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:kerberos',
  'urn:oasis:names:tc:SAML:2.0:nameid-format:entity',
] as const;

export const HTTP_POST_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const HTTP_REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

/** The settings as the identity provider uses them: every default applied. */
export interface SamlpSettings {
  /** Defaults to the AuthnRequest's Issuer (for IdP-initiated SSO: the ACS URL). */
  audience?: string;
  /** `Recipient` of SubjectConfirmationData; defaults to the ACS URL. */
  recipient?: string;
  /** `Destination` of the Response; defaults to the ACS URL. */
  destination?: string;
  /** Defaults to `urn:{tenant domain}`. */
  issuer?: string;
  mappings: Readonly<Record<string, string | readonly string[]>>;
  createUpnClaim: boolean;
  passthroughClaimsWithNoMapping: boolean;
  mapUnknownClaimsAsIs: boolean;
  mapIdentities: boolean;
  signatureAlgorithm: 'rsa-sha256' | 'rsa-sha1';
  digestAlgorithm: 'sha256' | 'sha1';
  lifetimeInSeconds: number;
  /** true: the whole Response is signed; false: the Assertion is. */
  signResponse: boolean;
  nameIdentifierFormat: (typeof NAME_ID_FORMATS)[number];
  /** SAML attribute names tried in order for the NameID value. */
  nameIdentifierProbes: readonly string[];
  authnContextClassRef: string;
  typedAttributes: boolean;
  includeAttributeNameFormat: boolean;
  /** The SP's certificate (PEM or base64 DER): its AuthnRequests and LogoutRequests must be signed with it. */
  signingCert?: string;
  /** The SP's certificate: assertions are encrypted to it (AES-256-GCM, RSA-OAEP) when set. */
  encryptionCert?: string;
  /** Accepted with `encryptionCert` (the service's dashboard sends both); the certificate's key is the one used. */
  encryptionPublicKey?: string;
  logout: { callback?: string; slo_enabled: boolean };
  /** The binding of the LogoutResponse (and of logout notifications) sent to `logout.callback`. */
  binding: typeof HTTP_POST_BINDING | typeof HTTP_REDIRECT_BINDING;
}

export const SAMLP_DEFAULTS: Omit<SamlpSettings, 'audience' | 'recipient' | 'destination' | 'issuer' | 'signingCert' | 'encryptionCert' | 'encryptionPublicKey'> = {
  mappings: {},
  createUpnClaim: true,
  passthroughClaimsWithNoMapping: true,
  mapUnknownClaimsAsIs: false,
  mapIdentities: true,
  signatureAlgorithm: 'rsa-sha256',
  digestAlgorithm: 'sha256',
  lifetimeInSeconds: 3600,
  signResponse: false,
  nameIdentifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
  nameIdentifierProbes: [`${CLAIMS}/nameidentifier`, `${CLAIMS}/emailaddress`, `${CLAIMS}/name`],
  authnContextClassRef: 'urn:oasis:names:tc:SAML:2.0:ac:classes:unspecified',
  typedAttributes: true,
  includeAttributeNameFormat: true,
  logout: { slo_enabled: false },
  binding: HTTP_POST_BINDING,
};

/** The longest assertion lifetime accepted: a day. */
export const MAX_LIFETIME_SECONDS = 86_400;
const MAX_TEXT = 1024;
const MAX_MAPPINGS = 100;
const MAX_PROBES = 10;
const MAX_CERTIFICATE = 16_384;

type Check = (value: unknown) => string | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

const boolean: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be a boolean');

const text: Check = (v) => (typeof v !== 'string' || v.length === 0 ? 'must be a non-empty string' : v.length > MAX_TEXT ? `must be at most ${MAX_TEXT} characters` : undefined);

/** An absolute http(s) URL: where the browser is sent with an assertion. */
const url: Check = (v) => {
  const problem = text(v);
  if (problem) return problem;
  if (!URL.canParse(v as string)) return 'must be an absolute URL';
  const { protocol } = new URL(v as string);
  return protocol === 'https:' || protocol === 'http:' ? undefined : 'must be an http or https URL';
};

const oneOf = (values: readonly string[]): Check => (v) => (typeof v === 'string' && values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);

const certificate: Check = (v) => {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_CERTIFICATE) return 'must be an X.509 certificate (PEM, or base64 DER)';
  const body = v.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    const cert = new X509Certificate(Buffer.from(body, 'base64'));
    return cert.publicKey.asymmetricKeyType === 'rsa' ? undefined : 'must be an RSA certificate';
  } catch {
    return 'must be an X.509 certificate (PEM, or base64 DER)';
  }
};

const publicKey: Check = (v) => {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_CERTIFICATE) return 'must be a PEM public key';
  try {
    return createPublicKey(v).asymmetricKeyType === 'rsa' ? undefined : 'must be an RSA public key';
  } catch {
    return 'must be a PEM public key';
  }
};

const mappings: Check = (v) => {
  if (!isObject(v)) return 'must be an object';
  const entries = Object.entries(v);
  if (entries.length > MAX_MAPPINGS) return `must have at most ${MAX_MAPPINGS} members`;
  for (const [name, target] of entries) {
    if (name.length === 0 || name.length > MAX_TEXT) return 'names must be 1 to 1024 characters';
    const targets = Array.isArray(target) ? target : [target];
    if (targets.length === 0 || targets.some((t) => text(t) !== undefined)) return `${name} must map to an attribute name or a list of them`;
  }
  return undefined;
};

const probes: Check = (v) => {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_PROBES) return `must be a list of 1 to ${MAX_PROBES} attribute names`;
  return v.some((p) => text(p) !== undefined) ? 'must hold attribute names' : undefined;
};

const lifetime: Check = (v) =>
  Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_LIFETIME_SECONDS ? undefined : `must be an integer from 1 to ${MAX_LIFETIME_SECONDS}`;

const logout: Check = (v) => {
  if (!isObject(v)) return 'must be an object';
  for (const [key, value] of Object.entries(v)) {
    const problem = key === 'callback' ? url(value) : key === 'slo_enabled' ? boolean(value) : 'is not a setting';
    if (problem) return `${key} ${problem}`;
  }
  return undefined;
};

/** Settings by name: a Map, so a name of Object.prototype (`hasOwnProperty`, `isPrototypeOf`) is no setting. */
const RULES: ReadonlyMap<string, Check> = new Map(Object.entries({
  audience: text,
  recipient: url,
  destination: url,
  issuer: text,
  mappings,
  createUpnClaim: boolean,
  passthroughClaimsWithNoMapping: boolean,
  mapUnknownClaimsAsIs: boolean,
  mapIdentities: boolean,
  signatureAlgorithm: oneOf(['rsa-sha256', 'rsa-sha1']),
  digestAlgorithm: oneOf(['sha256', 'sha1']),
  lifetimeInSeconds: lifetime,
  signResponse: boolean,
  nameIdentifierFormat: oneOf(NAME_ID_FORMATS),
  nameIdentifierProbes: probes,
  authnContextClassRef: text,
  typedAttributes: boolean,
  includeAttributeNameFormat: boolean,
  signingCert: certificate,
  encryptionCert: certificate,
  encryptionPublicKey: publicKey,
  logout,
  binding: oneOf([HTTP_POST_BINDING, HTTP_REDIRECT_BINDING]),
} satisfies Record<keyof SamlpSettings, Check>));

/** What is wrong with a `samlp` addon value, as `{ property, message }`; undefined when nothing is. */
export function samlpAddonProblem(addon: unknown): { property: string; message: string } | undefined {
  if (addon === undefined) return undefined;
  if (!isObject(addon)) return { property: 'addons.samlp', message: 'must be an object' };
  for (const [key, value] of Object.entries(addon)) {
    const rule = RULES.get(key);
    if (!rule) return { property: `addons.samlp.${key}`, message: 'is not a setting of the samlp addon' };
    const problem = rule(value);
    if (problem) return { property: `addons.samlp.${key}`, message: problem };
  }
  // Encryption needs the certificate (its KeyInfo names it); a key alone says nothing to encrypt to.
  if (addon.encryptionPublicKey !== undefined && addon.encryptionCert === undefined) {
    return { property: 'addons.samlp.encryptionPublicKey', message: 'needs encryptionCert: assertions are encrypted to the certificate' };
  }
  return undefined;
}

/** The client's `addons.samlp`, with every default applied; undefined when the client has no samlp addon. */
export function samlpSettings(config: Readonly<Record<string, unknown>>): SamlpSettings | undefined {
  const addons = config.addons;
  if (!isObject(addons) || !isObject(addons.samlp)) return undefined;
  // Stored addons were checked on create and update (samlpAddonProblem).
  const addon = addons.samlp as Partial<SamlpSettings> & { logout?: Partial<SamlpSettings['logout']> };
  return {
    ...SAMLP_DEFAULTS,
    ...addon,
    logout: { ...SAMLP_DEFAULTS.logout, ...addon.logout },
  };
}
