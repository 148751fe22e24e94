/**
 * DPoP proofs (RFC 9449), as the token endpoint, /oauth/par and /userinfo
 * check them:
 *
 * - one `DPoP` header of at most MAX_PROOF_BYTES, a JWS with `typ: dpop+jwt`,
 *   an asymmetric `alg` of DPOP_ALGS and a public `jwk` (no private members),
 *   whose signature that key verifies (§4.3);
 * - `htm` the request's method, `htu` the endpoint's URL without query and
 *   fragment, `iat` within PROOF_WINDOW_SECONDS in the past (CLOCK_SKEW in the
 *   future), `jti` of at most 128 characters used once per key across
 *   processes (the one-time-use store);
 * - a server nonce (§8): every proof must carry a `nonce` this server issued
 *   in the last two NONCE_PERIOD_SECONDS periods; a fresh one is sent with
 *   every answer in `DPoP-Nonce`, and a proof without a valid one gets
 *   `use_dpop_nonce` (400 at the token endpoint, a 401 challenge at resources).
 *   Nonces are stateless: an HMAC of the tenant and the period, keyed from the
 *   master key, so every process accepts every other's;
 * - at a resource, `ath`: the SHA-256 of the access token presented (§4.3).
 *
 * The result is the key's JWK thumbprint (`jkt`), which binds tokens (`cnf`).
 */
import { createHash, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import { oauthErrors } from '../../platform/http/errors.js';

export const DPOP_ALGS = ['ES256', 'ES384', 'PS256', 'RS256', 'EdDSA'] as const;
export const MAX_PROOF_BYTES = 4096;
export const PROOF_WINDOW_SECONDS = 120;
export const CLOCK_SKEW_SECONDS = 10;
export const NONCE_PERIOD_SECONDS = 300;
const MAX_JTI_LENGTH = 128;
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * A refused proof is an OAuthError `invalid_dpop_proof`, or `use_dpop_nonce`
 * asking the client to retry with the nonce it was sent; the endpoint renders
 * it (OAuth JSON at the token endpoint and PAR, a DPoP challenge at /userinfo).
 */
const invalid = oauthErrors.invalidDpopProof;

/** The codes of a refused proof. */
export const DPOP_ERRORS: ReadonlySet<string> = new Set(['invalid_dpop_proof', 'use_dpop_nonce']);

/** What DPoP proofs touch. */
export interface DpopContext {
  formTokens(purpose: string): FormTokens;
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore };
}

function nonceFor(ctx: DpopContext, tenant: Tenant, period: number): string {
  return `${period.toString(36)}.${ctx.formTokens('dpop-nonce').token(tenant.id, String(period))}`;
}

/** The nonce to send now (`DPoP-Nonce`). */
export function currentNonce(ctx: DpopContext, tenant: Tenant): string {
  return nonceFor(ctx, tenant, Math.floor(ctx.now() / 1000 / NONCE_PERIOD_SECONDS));
}

function nonceValid(ctx: DpopContext, tenant: Tenant, nonce: unknown): boolean {
  if (typeof nonce !== 'string' || nonce.length > 128) return false;
  const [encoded] = nonce.split('.');
  const period = Number.parseInt(encoded ?? '', 36);
  const current = Math.floor(ctx.now() / 1000 / NONCE_PERIOD_SECONDS);
  if (!Number.isSafeInteger(period) || (period !== current && period !== current - 1)) return false;
  return ctx.formTokens('dpop-nonce').matches(nonce.slice(encoded!.length + 1), tenant.id, String(period));
}

/** The request's one DPoP header, if any; two are refused. */
export function dpopHeader(request: FastifyRequest): string | undefined {
  const value = request.headers.dpop;
  if (value === undefined) return undefined;
  if (Array.isArray(value) || value.includes(',')) throw invalid('Only one DPoP proof may be sent');
  return value;
}

export interface ProofCheck {
  /** The endpoint's URL as `htu` must name it (no query, no fragment). */
  htu: string;
  /** The access token presented with the proof, at a resource (`ath`). */
  accessToken?: string;
}

interface ProofKey {
  key: KeyObject;
  jkt: string;
}

/**
 * Keys of recent proofs, imported once: a client signs every proof with the
 * same key, and importing a JWK costs more than verifying with it.
 * Keyed by the JWK's public members; the oldest entry goes first.
 */
const proofKeys = new Map<string, ProofKey>();
const MAX_PROOF_KEYS = 10_000;

async function proofKey(jwk: JWK): Promise<ProofKey> {
  const id = JSON.stringify([jwk.kty, jwk.crv, jwk.x, jwk.y, jwk.n, jwk.e]);
  const cached = proofKeys.get(id);
  if (cached) return cached;
  const entry = { key: createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }), jkt: await calculateJwkThumbprint(jwk, 'sha256') };
  if (entry.key.type !== 'public') throw new Error('not a public key');
  if (proofKeys.size >= MAX_PROOF_KEYS) proofKeys.delete(proofKeys.keys().next().value!);
  proofKeys.set(id, entry);
  return entry;
}

/** Verifies the proof and answers its key's thumbprint (`jkt`). */
export async function verifyDpopProof(ctx: DpopContext, tenant: Tenant, request: FastifyRequest, proof: string, check: ProofCheck): Promise<string> {
  if (Buffer.byteLength(proof) > MAX_PROOF_BYTES) throw invalid(`The DPoP proof is larger than ${MAX_PROOF_BYTES} bytes`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw invalid('The DPoP proof is not a JWS');
  }
  if (header.typ !== 'dpop+jwt') throw invalid('The DPoP proof typ must be dpop+jwt');
  if (typeof header.alg !== 'string' || !(DPOP_ALGS as readonly string[]).includes(header.alg)) throw invalid(`The DPoP proof alg must be one of ${DPOP_ALGS.join(', ')}`);
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== 'object') throw invalid('The DPoP proof header must carry its public jwk');
  if (PRIVATE_JWK_MEMBERS.some((member) => member in jwk)) throw invalid('The DPoP proof jwk must be a public key');

  let key: ProofKey;
  try {
    key = await proofKey(jwk);
  } catch {
    throw invalid('The DPoP proof jwk is not a usable public key');
  }
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(proof, key.key, { typ: 'dpop+jwt', algorithms: [header.alg], currentDate: new Date(ctx.now()) }));
  } catch (error) {
    throw invalid(error instanceof joseErrors.JOSEError ? `The DPoP proof does not verify: ${error.code}` : 'The DPoP proof does not verify');
  }

  if (payload.htm !== request.method) throw invalid('The DPoP proof htm does not match the request method');
  if (typeof payload.htu !== 'string' || !sameUrl(payload.htu, check.htu)) throw invalid('The DPoP proof htu does not match the endpoint');
  const now = Math.floor(ctx.now() / 1000);
  if (typeof payload.iat !== 'number' || payload.iat < now - PROOF_WINDOW_SECONDS || payload.iat > now + CLOCK_SKEW_SECONDS) {
    throw invalid('The DPoP proof iat is outside the accepted window');
  }
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > MAX_JTI_LENGTH) throw invalid('The DPoP proof needs a jti of at most 128 characters');
  if (check.accessToken !== undefined) {
    const ath = createHash('sha256').update(check.accessToken).digest('base64url');
    if (payload.ath !== ath) throw invalid('The DPoP proof ath does not match the access token');
  }
  if (!nonceValid(ctx, tenant, payload.nonce)) throw oauthErrors.useDpopNonce('Authorization server requires nonce in DPoP proof');

  const jkt = key.jkt;
  const fresh = await ctx.stores.oneTimeUses.use(tenant.id, `dpop:${jkt}`, secretHash(payload.jti), isoAt((payload.iat + PROOF_WINDOW_SECONDS + CLOCK_SKEW_SECONDS) * 1000), isoAt(ctx.now()));
  if (!fresh) throw invalid('The DPoP proof was already used');
  return jkt;
}

/** Whether two URLs name the same endpoint: scheme, host and path (RFC 9449 §4.3, RFC 3986 §6 normalisation; query and fragment ignored). */
function sameUrl(given: string, expected: string): boolean {
  try {
    const a = new URL(given);
    const b = new URL(expected);
    return a.protocol === b.protocol && a.host === b.host && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

/** Sends the current nonce with an answer. */
export function withNonce(ctx: DpopContext, tenant: Tenant, reply: FastifyReply): FastifyReply {
  return reply.header('DPoP-Nonce', currentNonce(ctx, tenant));
}
