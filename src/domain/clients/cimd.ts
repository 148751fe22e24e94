/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document,
 * "CIMD"): a client whose `client_id` is an HTTPS URL serving its own
 * metadata (RFC 7591 member names). The rules the draft and the service's
 * document set, checked here on what the fetch returned; the fetch itself
 * (through the outbound guard, bounded) is the caller's.
 *
 * The URL (draft §3): `https`, with a path, no fragment, no user or password,
 * no `.` or `..` path segment; a query is allowed but discouraged (a
 * warning). The document (draft §4.1): a JSON object whose `client_id` is
 * the URL, compared as strings; no shared secret (`client_secret`,
 * `client_secret_expires_at`, and the secret-based
 * `token_endpoint_auth_method`s are refused: "CIMD security policies
 * (HTTPS-only, no shared secrets)" of the service's document), so the
 * method is `none` (the default) or `private_key_jwt` with the keys in
 * `jwks` or at `jwks_uri` (one of them). `redirect_uris` is required: the
 * clients CIMD is for log users in with the authorization code flow.
 *
 * Gatehouse's choices where the service does not say: the grant types a
 * CIMD client may list are `authorization_code` and `refresh_token`
 * (`client_credentials` too for a `private_key_jwt` client; the default is
 * `authorization_code`); `response_types`, when given, is `["code"]`; the
 * app type is `native` for `application_type: native`, `regular_web` for a
 * `private_key_jwt` client and `spa` otherwise; a missing `client_name`
 * names the client after the URL's host (a warning); keys are RSA
 * (RS256 by default, RS384, PS256: the algorithms client credentials take).
 */
import { createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { CREDENTIAL_ALGS, MIN_RSA_BITS } from '../client-credentials/new-credential.js';

/** The largest metadata document read (the draft suggests 5 kilobytes). */
export const CIMD_MAX_BYTES = 5 * 1024;
/** The largest JWKS read from a document's `jwks_uri`. */
export const CIMD_JWKS_MAX_BYTES = 64 * 1024;
/** The deadline of each fetch. */
export const CIMD_TIMEOUT_MS = 5_000;
/** Keys a document may carry. */
export const CIMD_MAX_KEYS = 10;

const ALLOWED_AUTH_METHODS = ['none', 'private_key_jwt'] as const;
const KID = /^[0-9a-zA-Z\-_]{10,64}$/;

export interface CimdValidation {
  valid: boolean;
  violations: string[];
  warnings: string[];
}

/** A key of the document's JWKS as a client credential: what the preview shows, and the PEM registration stores. */
export interface CimdKey {
  credential_type: 'public_key';
  kid: string;
  alg: string;
  pem: string;
}

/** The client fields the document maps to (the document's CimdMappedClientFields). */
export interface CimdMappedFields {
  external_client_id: string;
  name: string;
  app_type: 'native' | 'regular_web' | 'spa';
  callbacks: string[];
  logo_uri?: string;
  grant_types: string[];
  token_endpoint_auth_method: 'none' | 'private_key_jwt';
  jwks_uri?: string;
  client_authentication_methods?: { private_key_jwt: { credentials: { credential_type: 'public_key'; kid: string; alg: string }[] } };
}

/** Why a URL cannot be a client id (draft §3), or undefined when it can. */
export function clientIdUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'external_client_id must be an absolute URL';
  }
  if (url.protocol !== 'https:') return 'external_client_id must be an https URL';
  if (url.username !== '' || url.password !== '') return 'external_client_id must not contain a user or password';
  if (value.includes('#')) return 'external_client_id must not contain a fragment';
  if (url.pathname === '/' && !/^https:\/\/[^/]+\/./.test(value)) return 'external_client_id must contain a path';
  // `new URL` resolves dot segments away; the draft refuses them as written.
  const path = value.replace(/^https:\/\/[^/]+/, '').split(/[?#]/)[0] ?? '';
  if (path.split('/').some((segment) => segment === '.' || segment === '..' || /^%2e%2e?$/i.test(segment) || /^(\.|%2e)(\.|%2e)?$/i.test(segment))) {
    return 'external_client_id must not contain dot path segments';
  }
  return undefined;
}

const isHttpsUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
};

/** The document's keys as credentials, with what is wrong with them. */
export async function keysFromJwks(jwks: unknown, source: string): Promise<{ keys: CimdKey[]; violations: string[]; warnings: string[] }> {
  const violations: string[] = [];
  const warnings: string[] = [];
  const keys: CimdKey[] = [];
  const list = (jwks as { keys?: unknown } | null)?.keys;
  if (typeof jwks !== 'object' || jwks === null || !Array.isArray(list)) return { keys, violations: [`${source} must be a JWK Set ({"keys": [...]})`], warnings };
  if (list.length === 0) violations.push(`${source} holds no key`);
  if (list.length > CIMD_MAX_KEYS) return { keys, violations: [`${source} holds more than ${CIMD_MAX_KEYS} keys`], warnings };
  for (const [index, entry] of list.entries()) {
    const jwk = entry as JWK;
    const where = `${source}.keys[${index}]`;
    if (typeof jwk !== 'object' || jwk === null || jwk.kty !== 'RSA') {
      violations.push(`${where}: only RSA public keys are supported`);
      continue;
    }
    if (jwk.d !== undefined || jwk.p !== undefined) {
      violations.push(`${where}: a private key must never be published`);
      continue;
    }
    if (jwk.use !== undefined && jwk.use !== 'sig') {
      warnings.push(`${where}: not a signing key (use ${String(jwk.use)}), ignored`);
      continue;
    }
    const alg = jwk.alg ?? 'RS256';
    if (!(CREDENTIAL_ALGS as readonly string[]).includes(alg)) {
      violations.push(`${where}: alg must be one of ${CREDENTIAL_ALGS.join(', ')}`);
      continue;
    }
    let pem: string;
    try {
      const key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
      if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) {
        violations.push(`${where}: the RSA key must be at least ${MIN_RSA_BITS} bits`);
        continue;
      }
      pem = key.export({ type: 'spki', format: 'pem' }).toString();
    } catch {
      violations.push(`${where}: not a valid RSA public key`);
      continue;
    }
    let kid = typeof jwk.kid === 'string' ? jwk.kid : '';
    if (!KID.test(kid)) {
      const thumbprint = await calculateJwkThumbprint({ kty: 'RSA', n: jwk.n!, e: jwk.e! }, 'sha256');
      if (kid !== '') warnings.push(`${where}: kid "${kid.slice(0, 80)}" is not 10-64 of [0-9a-zA-Z-_]; the key's thumbprint ${thumbprint} is its kid`);
      kid = thumbprint;
    }
    if (keys.some((k) => k.kid === kid)) {
      violations.push(`${where}: kid ${kid} is listed twice`);
      continue;
    }
    keys.push({ credential_type: 'public_key', kid, alg, pem });
  }
  return { keys, violations, warnings };
}

/** What validating a fetched document found: the mapped fields when it is valid, and the JWKS URL still to fetch. */
export interface CimdChecked {
  validation: CimdValidation;
  /** How the document maps to a client (absent when it is not a JSON object); registration applies it only when valid. */
  mapped?: CimdMappedFields;
  /** The keys of a private_key_jwt client, with their PEMs. */
  keys: CimdKey[];
}

/**
 * Validates the document fetched from `url` and maps it to client fields.
 * The keys are the document's inline `jwks`, or `fetchedJwks.jwks`, what the
 * caller fetched from its `jwks_uri` (`fetchedJwks.problem` says why that
 * fetch failed).
 */
export async function checkMetadata(url: string, document: unknown, fetchedJwks?: { jwks?: unknown; problem?: string }): Promise<CimdChecked> {
  const violations: string[] = [];
  const warnings: string[] = [];
  let credentials: CimdKey[] | undefined;
  const done = (mapped?: CimdMappedFields): CimdChecked => ({ validation: { valid: violations.length === 0, violations, warnings }, ...(mapped && { mapped }), keys: credentials ?? [] });
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    violations.push('The metadata document is not a JSON object');
    return done();
  }
  const doc = document as Record<string, unknown>;
  if (doc.client_id === undefined) violations.push('client_id is required');
  else if (doc.client_id !== url) violations.push(`client_id must equal the document's URL ${url}`);
  if (new URL(url).search !== '') warnings.push('external_client_id should not contain a query string');
  for (const secret of ['client_secret', 'client_secret_expires_at']) {
    if (doc[secret] !== undefined) violations.push(`${secret} must not be present: CIMD clients have no shared secret`);
  }
  const method = doc.token_endpoint_auth_method ?? 'none';
  if (typeof method !== 'string' || !(ALLOWED_AUTH_METHODS as readonly string[]).includes(method)) {
    violations.push(`token_endpoint_auth_method ${JSON.stringify(method)} is not allowed: CIMD clients use none or private_key_jwt (no shared secrets)`);
  }
  const redirects = doc.redirect_uris;
  if (!Array.isArray(redirects) || redirects.length === 0) {
    violations.push('redirect_uris is required: a non-empty array of URLs');
  } else {
    for (const uri of redirects) {
      let parsed: URL | undefined;
      try {
        parsed = typeof uri === 'string' ? new URL(uri) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed) violations.push(`redirect_uris: ${JSON.stringify(uri)} is not an absolute URL`);
      else if (parsed.hash !== '' || (uri as string).includes('#')) violations.push(`redirect_uris: ${uri as string} must not contain a fragment`);
      else if (parsed.protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname)) {
        violations.push(`redirect_uris: ${uri as string} must use https (http only on a loopback address)`);
      }
    }
  }
  const privateKeyJwt = method === 'private_key_jwt';
  const allowedGrants = privateKeyJwt ? ['authorization_code', 'refresh_token', 'client_credentials'] : ['authorization_code', 'refresh_token'];
  const grants = doc.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || grants.some((g) => typeof g !== 'string')) violations.push('grant_types must be an array of strings');
  else for (const grant of grants as string[]) if (!allowedGrants.includes(grant)) violations.push(`grant_types: ${grant} is not allowed for this client (${allowedGrants.join(', ')})`);
  if (doc.response_types !== undefined && (!Array.isArray(doc.response_types) || doc.response_types.some((t) => t !== 'code'))) {
    violations.push('response_types: only code is supported');
  }
  let name = new URL(url).host;
  if (doc.client_name === undefined) warnings.push(`client_name is missing: the client is named ${name}`);
  else if (typeof doc.client_name !== 'string' || doc.client_name.trim() === '') violations.push('client_name must be a non-empty string');
  else name = doc.client_name.slice(0, 140);
  let logo: string | undefined;
  if (doc.logo_uri !== undefined) {
    if (isHttpsUrl(doc.logo_uri)) logo = doc.logo_uri;
    else warnings.push('logo_uri is not an https URL: ignored');
  }
  if (doc.application_type !== undefined && doc.application_type !== 'web' && doc.application_type !== 'native') {
    violations.push('application_type must be web or native');
  }

  let jwksUri: string | undefined;
  if (doc.jwks !== undefined && doc.jwks_uri !== undefined) violations.push('jwks and jwks_uri must not both be present');
  else if (privateKeyJwt && doc.jwks === undefined && doc.jwks_uri === undefined) violations.push('private_key_jwt needs jwks or jwks_uri');
  else if (privateKeyJwt) {
    if (doc.jwks_uri !== undefined && !isHttpsUrl(doc.jwks_uri)) violations.push('jwks_uri must be an https URL');
    else {
      if (doc.jwks_uri !== undefined) jwksUri = doc.jwks_uri as string;
      if (fetchedJwks?.problem) violations.push(`The JWKS at ${jwksUri} could not be retrieved: ${fetchedJwks.problem}`);
      else {
        const checked = await keysFromJwks(doc.jwks ?? fetchedJwks?.jwks, doc.jwks !== undefined ? 'jwks' : 'jwks_uri');
        violations.push(...checked.violations);
        warnings.push(...checked.warnings);
        if (checked.keys.length === 0 && checked.violations.length === 0) violations.push('private_key_jwt needs at least one signing key');
        credentials = checked.keys;
      }
    }
  } else if (doc.jwks !== undefined || doc.jwks_uri !== undefined) warnings.push('jwks and jwks_uri are used by private_key_jwt only: ignored');

  return done({
    external_client_id: url,
    name,
    app_type: doc.application_type === 'native' ? 'native' : privateKeyJwt ? 'regular_web' : 'spa',
    callbacks: Array.isArray(redirects) ? (redirects as string[]) : [],
    ...(logo !== undefined && { logo_uri: logo }),
    grant_types: Array.isArray(grants) ? (grants as string[]) : [],
    token_endpoint_auth_method: privateKeyJwt ? 'private_key_jwt' : 'none',
    ...(jwksUri !== undefined && { jwks_uri: jwksUri }),
    ...(credentials && {
      client_authentication_methods: { private_key_jwt: { credentials: credentials.map(({ credential_type, kid, alg }) => ({ credential_type, kid, alg })) } },
    }),
  });
}
