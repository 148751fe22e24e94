/**
 * SAML enterprise connections (`strategy: "samlp"`): Gatehouse as the
 * service provider of an external SAML identity provider
 * (authentication-api-wire-notes §14, "Auth0 as SAML SP"). The options, the
 * rules every value must follow (checked by the Management API on create and
 * update: `samlpConnectionProblem`), and the settings the login flow reads
 * (`samlpConnectionSettings`).
 *
 * - `signInEndpoint` (required), `signOutEndpoint`: the IdP's URLs;
 * - `signingCert` (required): the IdP's certificate, PEM or base64 DER (the
 *   service's dashboard stores it base64-encoded PEM, also accepted);
 *   responses must be signed with it;
 * - `signSAMLRequest`, `signatureAlgorithm` (`rsa-sha256` default, or
 *   `rsa-sha1`), `digestAlgorithm` (`sha256` default, or `sha1`): the
 *   AuthnRequest, signed with the tenant's key;
 * - `protocolBinding`: how the AuthnRequest travels, HTTP-Redirect (default)
 *   or HTTP-POST; the response always comes by HTTP-POST;
 * - `user_id_attribute`: the attribute whose value is the user id (default
 *   the NameID); `fieldsMap`: profile member → attribute name(s);
 * - `idpinitiated`: `{enabled, client_id, client_protocol: "oidc",
 *   client_authorizequery}`: where an unsolicited response logs the user in;
 * - `domain_aliases`: email domains sent to this IdP from the login page;
 * - `debug`: accepted and stored; Gatehouse logs refusals either way.
 */
import { X509Certificate } from 'node:crypto';
import { HTTP_POST_BINDING, HTTP_REDIRECT_BINDING } from '../clients/samlp-addon.js';

export const SAMLP_STRATEGY = 'samlp';
const MAX_TEXT = 1024;

export interface SamlpConnectionSettings {
  signInEndpoint: string;
  signOutEndpoint?: string;
  /** The IdP's certificate as PEM. */
  signingCert: string;
  signSAMLRequest: boolean;
  signatureAlgorithm: 'rsa-sha256' | 'rsa-sha1';
  digestAlgorithm: 'sha256' | 'sha1';
  protocolBinding: typeof HTTP_POST_BINDING | typeof HTTP_REDIRECT_BINDING;
  user_id_attribute?: string;
  fieldsMap: Readonly<Record<string, string | readonly string[]>>;
  idpinitiated: { enabled: boolean; client_id?: string; client_protocol: 'oidc'; client_authorizequery?: string };
  domain_aliases: readonly string[];
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The certificate of `signingCert` as PEM: PEM, base64 DER, or the base64 of
 * a PEM (as the service's dashboard stores an uploaded file); undefined when
 * it is none of those or not an RSA certificate.
 */
export function certificateFromOption(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 32_768) return undefined;
  let text = value.trim();
  if (!text.includes('-----BEGIN')) {
    const decoded = Buffer.from(text, 'base64').toString('latin1');
    if (decoded.includes('-----BEGIN CERTIFICATE-----')) text = decoded;
  }
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  try {
    const certificate = new X509Certificate(Buffer.from(body, 'base64'));
    return certificate.publicKey.asymmetricKeyType === 'rsa' ? certificate.toString() : undefined;
  } catch {
    return undefined;
  }
}

const httpsUrl = (v: unknown): string | undefined => {
  if (typeof v !== 'string' || v.length > MAX_TEXT || !URL.canParse(v)) return 'must be an absolute URL';
  const { protocol, hostname } = new URL(v);
  if (protocol === 'https:' || (protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(hostname))) return undefined;
  return 'must be an https URL (http only for localhost)';
};
const boolean = (v: unknown) => (typeof v === 'boolean' ? undefined : 'must be a boolean');
const text = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= MAX_TEXT ? undefined : 'must be a non-empty string of at most 1024 characters');
const oneOf = (values: readonly string[]) => (v: unknown) => (typeof v === 'string' && values.includes(v) ? undefined : `must be one of ${values.join(', ')}`);

const BINDINGS = [HTTP_REDIRECT_BINDING, HTTP_POST_BINDING, 'HTTP-Redirect', 'HTTP-POST'];

/** Options by name: a Map, so a name of Object.prototype (`hasOwnProperty`, `isPrototypeOf`) is no option. */
const RULES: ReadonlyMap<string, (v: unknown) => string | undefined> = new Map(Object.entries({
  signInEndpoint: httpsUrl,
  signOutEndpoint: httpsUrl,
  signingCert: (v) => (certificateFromOption(v) ? undefined : 'must be an RSA X.509 certificate (PEM, base64 DER, or base64 of a PEM)'),
  signSAMLRequest: boolean,
  signatureAlgorithm: oneOf(['rsa-sha256', 'rsa-sha1']),
  digestAlgorithm: oneOf(['sha256', 'sha1']),
  protocolBinding: oneOf(BINDINGS),
  user_id_attribute: text,
  fieldsMap: (v) => {
    if (!isObject(v) || Object.keys(v).length > 100) return 'must be an object of at most 100 members';
    for (const [name, target] of Object.entries(v)) {
      const targets = Array.isArray(target) ? target : [target];
      if (targets.length === 0 || targets.some((t) => text(t) !== undefined)) return `${name} must map to an attribute name or a list of them`;
    }
    return undefined;
  },
  idpinitiated: (v) => {
    if (!isObject(v)) return 'must be an object';
    for (const [key, value] of Object.entries(v)) {
      const problem =
        key === 'enabled' ? boolean(value) : key === 'client_id' || key === 'client_authorizequery' ? text(value) : key === 'client_protocol' ? oneOf(['oidc'])(value) : 'is not a setting';
      if (problem) return `${key} ${problem}`;
    }
    if (v.enabled === true && typeof v.client_id !== 'string') return 'client_id is required when enabled';
    return undefined;
  },
  domain_aliases: (v) =>
    Array.isArray(v) && v.length <= 100 && v.every((d) => typeof d === 'string' && /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(d))
      ? undefined
      : 'must be a list of at most 100 domain names',
  debug: boolean,
} satisfies Record<string, (v: unknown) => string | undefined>));

const REQUIRED = ['signInEndpoint', 'signingCert'];

/** What is wrong with the options of a samlp connection, as `{ property, message }`; undefined when nothing is. */
export function samlpConnectionProblem(options: unknown): { property: string; message: string } | undefined {
  if (!isObject(options)) return { property: 'options', message: 'must be an object' };
  for (const key of REQUIRED) if (options[key] === undefined) return { property: `options.${key}`, message: 'is required for a samlp connection' };
  for (const [key, value] of Object.entries(options)) {
    const rule = RULES.get(key);
    if (!rule) return { property: `options.${key}`, message: 'is not an option of samlp connections' };
    const problem = rule(value);
    if (problem) return { property: `options.${key}`, message: problem };
  }
  return undefined;
}

/** The settings of a samlp connection's (checked) options, defaults applied. */
export function samlpConnectionSettings(options: Readonly<Record<string, unknown>>): SamlpConnectionSettings {
  const binding = String(options.protocolBinding ?? HTTP_REDIRECT_BINDING);
  const idp = isObject(options.idpinitiated) ? options.idpinitiated : {};
  const settings: SamlpConnectionSettings = {
    signInEndpoint: String(options.signInEndpoint),
    signingCert: certificateFromOption(options.signingCert) ?? '',
    signSAMLRequest: options.signSAMLRequest === true,
    signatureAlgorithm: options.signatureAlgorithm === 'rsa-sha1' ? 'rsa-sha1' : 'rsa-sha256',
    digestAlgorithm: options.digestAlgorithm === 'sha1' ? 'sha1' : 'sha256',
    protocolBinding: binding.endsWith('HTTP-POST') ? HTTP_POST_BINDING : HTTP_REDIRECT_BINDING,
    fieldsMap: isObject(options.fieldsMap) ? (options.fieldsMap as Record<string, string | string[]>) : {},
    idpinitiated: {
      enabled: idp.enabled === true,
      client_protocol: 'oidc',
      ...(typeof idp.client_id === 'string' && { client_id: idp.client_id }),
      ...(typeof idp.client_authorizequery === 'string' && { client_authorizequery: idp.client_authorizequery }),
    },
    domain_aliases: Array.isArray(options.domain_aliases) ? (options.domain_aliases as string[]) : [],
  };
  if (typeof options.signOutEndpoint === 'string') settings.signOutEndpoint = options.signOutEndpoint;
  if (typeof options.user_id_attribute === 'string') settings.user_id_attribute = options.user_id_attribute;
  return settings;
}

/** The SP's entity ID for a connection: `urn:auth0:{tenant}:{connection}` (wire notes §14). */
export const spEntityId = (tenantName: string, connection: string) => `urn:auth0:${tenantName}:${connection}`;
