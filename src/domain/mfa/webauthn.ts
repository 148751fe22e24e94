/**
 * WebAuthn (W3C Web Authentication Level 3) credentials as second factors,
 * through @simplewebauthn/server (attestation, COSE keys and signatures are
 * its work, never this file's):
 *
 * - the relying party is the tenant as the browser reached it: its ID the
 *   host of the issuer (the tenant's domain, or the custom domain the
 *   request came through), the origin the issuer's; an assertion made for
 *   another RP ID or on another origin is refused;
 * - a challenge is 32 random bytes kept as its SHA-256 in `mfa_challenges`
 *   (migration 0125), bound to the user, the client, the login transaction
 *   and what it is for (registering one factor, or authenticating), single
 *   use, and expiring with the out-of-band code lifetime: an answer to a
 *   challenge of another transaction, browser or user, or a second answer
 *   to one, is refused;
 * - registration asks for attestation `none` (the service's default: which
 *   make of key the user has is not the tenant's business) and user
 *   verification as the factor says (./factors/webauthn-*.ts);
 * - authentication accepts only a credential the user enrolled, in this
 *   tenant (credential ids are unique per tenant), with the signature
 *   counter moving forward when the authenticator counts (a counter that
 *   went backwards betrays a cloned key); the counter is advanced with a
 *   conditional UPDATE, so of two assertions with one counter one wins.
 *
 * A refused answer counts as a wrong code (../service.ts `wrong`): five in
 * the window block the user's second factor as wrong codes do.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { isoAt } from '../../platform/clock.js';
import { lifetimeOf } from '../lifetimes.js';
import type { MfaAuthenticatorRow } from '../rows.js';
import { secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import type { UserRow } from '../users/model.js';
import { factorOf } from './factors/registry.js';
import type { SecondFactor } from './factors/factor.js';
import type { Authenticator } from './model.js';
import { accountLabel, blocked, newAuthenticator, succeeded, totpIssuer, wrong, type MfaContext, type Verification } from './service.js';
import type { MfaWebAuthnStore } from './store.js';

/** What WebAuthn touches. */
export interface WebAuthnContext extends MfaContext {
  readonly stores: MfaContext['stores'] & { readonly mfa: MfaContext['stores']['mfa'] & MfaWebAuthnStore };
}

/** The login a challenge belongs to: the client and the transaction (one browser's login). */
export interface WebAuthnBinding {
  clientId: string;
  transactionId: string;
}

/** The relying party: the host and origin the browser reached the tenant on. */
export function relyingParty(tenant: Tenant): { id: string; origin: string; name: string } {
  const url = new URL(tenant.issuer);
  return { id: url.hostname, origin: url.origin, name: totpIssuer(tenant) };
}

/** Milliseconds the browser gives the user to answer. */
export function timeoutMs(tenant: Tenant): number {
  return lifetimeOf(tenant, 'mfa_oob_code') * 1000;
}

const AUTHENTICATE = 'webauthn:authenticate';
const registerPurpose = (factor: SecondFactor) => `webauthn:register:${factor.type}`;

async function keepChallenge(ctx: WebAuthnContext, tenant: Tenant, userId: string, binding: WebAuthnBinding, purpose: string, challenge: string): Promise<void> {
  await ctx.stores.mfa.insertChallenge({
    tenant_id: tenant.id,
    oob_hash: secretHash(challenge),
    authenticator_id: purpose,
    user_id: userId,
    client_id: binding.clientId,
    binding_hash: secretHash(binding.transactionId),
    expires_at: isoAt(ctx.now() + timeoutMs(tenant)),
  });
}

/** The check handed to the library: the challenge the browser signed is one this login was given for this purpose, and is spent now. */
function challengeSpender(ctx: WebAuthnContext, tenant: Tenant, userId: string, binding: WebAuthnBinding, purpose: string) {
  return async (challenge: string): Promise<boolean> => {
    const hash = secretHash(challenge);
    const row = await ctx.stores.mfa.challenge(tenant.id, hash);
    if (!row || row.user_id !== userId || row.client_id !== binding.clientId || row.authenticator_id !== purpose) return false;
    if (row.binding_hash !== secretHash(binding.transactionId)) return false;
    return ctx.stores.mfa.spendChallenge(tenant.id, hash, isoAt(ctx.now()));
  };
}

async function credentialsOf(ctx: WebAuthnContext, tenantId: string, userId: string): Promise<Authenticator[]> {
  const rows = (await ctx.stores.mfa.authenticators(tenantId, userId)) as Authenticator[];
  return rows.filter((row) => row.credential_id && factorOf(row)?.challenge === 'webauthn');
}

export function transportsOf(row: MfaAuthenticatorRow): AuthenticatorTransport[] | undefined {
  if (!row.transports) return undefined;
  const parsed: unknown = JSON.parse(row.transports);
  return Array.isArray(parsed) ? (parsed as AuthenticatorTransport[]) : undefined;
}

/** The options of `navigator.credentials.create()` for enrolling `factor`; the challenge is kept for this login. */
export async function registrationOptions(ctx: WebAuthnContext, tenant: Tenant, user: UserRow, factor: SecondFactor, binding: WebAuthnBinding): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(tenant);
  const existing = await credentialsOf(ctx, tenant.id, user.user_id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: accountLabel(user),
    userID: new TextEncoder().encode(user.user_id),
    timeout: timeoutMs(tenant),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id!, ...(transportsOf(row) && { transports: transportsOf(row) }) })),
    authenticatorSelection: { authenticatorAttachment: factor.webauthn!.attachment, residentKey: 'discouraged', userVerification: factor.webauthn!.userVerification },
  });
  await keepChallenge(ctx, tenant, user.user_id, binding, registerPurpose(factor), options.challenge);
  return options;
}

/** The credential the browser sent (`PublicKeyCredential.toJSON()`), as far as its shape goes; the library checks the rest. */
export function credentialJson(value: unknown): { id: string; response: Record<string, unknown> } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, rawId, type, response } = value as Record<string, unknown>;
  if (typeof id !== 'string' || id.length === 0 || id.length > 1024 || rawId !== id || type !== 'public-key') return undefined;
  if (typeof response !== 'object' || response === null) return undefined;
  return { id, response: response as Record<string, unknown> };
}

export type WebAuthnResult = { outcome: 'ok'; authenticator: Authenticator } | { outcome: 'wrong' } | { outcome: 'blocked' };

/**
 * The browser's answer to `registrationOptions`: a new, confirmed enrolment
 * of `factor`, or `wrong` (the challenge, origin, RP ID, user verification
 * or the attestation did not hold; the credential is already enrolled).
 */
export async function register(ctx: WebAuthnContext, tenant: Tenant, user: UserRow, factor: SecondFactor, binding: WebAuthnBinding, answer: unknown): Promise<WebAuthnResult> {
  const userId = user.user_id;
  if (await blocked(ctx, tenant.id, userId)) return { outcome: 'blocked' };
  const credential = credentialJson(answer);
  if (!credential) return wrong(ctx, tenant.id, userId);
  const rp = relyingParty(tenant);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: answer as RegistrationResponseJSON,
      expectedChallenge: challengeSpender(ctx, tenant, userId, binding, registerPurpose(factor)),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: factor.webauthn!.userVerification === 'required',
    });
  } catch {
    return wrong(ctx, tenant.id, userId);
  }
  if (!verified.verified) return wrong(ctx, tenant.id, userId);
  const info = verified.registrationInfo;
  if (await ctx.stores.mfa.authenticatorByCredential(tenant.id, info.credential.id)) return wrong(ctx, tenant.id, userId);
  const now = isoAt(ctx.now());
  const row = newAuthenticator(ctx, tenant.id, userId, factor.type as Authenticator['type'], {
    confirmed: 1,
    enrolled_at: now,
    credential_id: info.credential.id,
    public_key: isoBase64URL.fromBuffer(info.credential.publicKey),
    sign_count: info.credential.counter,
    transports: info.credential.transports ? JSON.stringify(info.credential.transports) : null,
    credential_device_type: info.credentialDeviceType,
    credential_backed_up: info.credentialBackedUp ? 1 : 0,
  });
  await ctx.stores.mfa.insertAuthenticator(row);
  return succeeded(ctx, tenant.id, row as Authenticator);
}

/** The options of `navigator.credentials.get()` for the user's enrolled credentials; the challenge is kept for this login. */
export async function authenticationOptions(ctx: WebAuthnContext, tenant: Tenant, userId: string, binding: WebAuthnBinding, usable: readonly Authenticator[]): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const rp = relyingParty(tenant);
  const credentials = usable.filter((row) => row.credential_id && factorOf(row)?.challenge === 'webauthn');
  const userVerification = credentials.some((row) => factorOf(row)?.webauthn?.userVerification === 'required') ? 'required' : 'preferred';
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    timeout: timeoutMs(tenant),
    userVerification,
    allowCredentials: credentials.map((row) => ({ id: row.credential_id!, ...(transportsOf(row) && { transports: transportsOf(row) }) })),
  });
  await keepChallenge(ctx, tenant, userId, binding, AUTHENTICATE, options.challenge);
  return options;
}

/**
 * The browser's answer to `authenticationOptions`: `ok` with the enrolment
 * whose credential signed, or `wrong` (not a credential of this user among
 * `usable`, the challenge, origin, RP ID, signature, user verification or
 * counter did not hold).
 */
export async function authenticate(ctx: WebAuthnContext, tenant: Tenant, userId: string, binding: WebAuthnBinding, usable: readonly Authenticator[], answer: unknown): Promise<Verification> {
  if (await blocked(ctx, tenant.id, userId)) return { outcome: 'blocked' };
  const credential = credentialJson(answer);
  const row = credential && usable.find((a) => a.credential_id === credential.id && factorOf(a)?.challenge === 'webauthn');
  if (!row || row.user_id !== userId) return wrong(ctx, tenant.id, userId);
  const newCounter = await verifiedAssertion(ctx, tenant, row, answer, challengeSpender(ctx, tenant, userId, binding, AUTHENTICATE), factorOf(row)!.webauthn!.userVerification === 'required');
  if (newCounter === undefined) return wrong(ctx, tenant.id, userId);
  return succeeded(ctx, tenant.id, { ...row, sign_count: newCounter });
}

/**
 * An assertion by the enrolled credential `row`, for this tenant as relying
 * party and a challenge `expectedChallenge` accepts: the signature counter it
 * moved to (recorded with a conditional UPDATE, so of two assertions with one
 * counter one wins), or undefined when anything did not hold.
 */
export async function verifiedAssertion(
  ctx: { readonly now: () => number; readonly stores: { readonly mfa: MfaWebAuthnStore } },
  tenant: Tenant,
  row: MfaAuthenticatorRow,
  answer: unknown,
  expectedChallenge: (challenge: string) => Promise<boolean>,
  requireUserVerification: boolean,
): Promise<number | undefined> {
  const rp = relyingParty(tenant);
  const previous = row.sign_count ?? 0;
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response: answer as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: row.credential_id!, publicKey: isoBase64URL.toBuffer(row.public_key!), counter: previous, ...(transportsOf(row) && { transports: transportsOf(row) }) },
      requireUserVerification,
    });
    if (!verified.verified) return undefined;
    newCounter = verified.authenticationInfo.newCounter;
  } catch {
    return undefined;
  }
  return (await ctx.stores.mfa.advanceSignCount(tenant.id, row.id, previous, newCounter, isoAt(ctx.now()))) ? newCounter : undefined;
}
