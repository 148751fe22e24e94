/**
 * Passkeys as a database connection's first factor (./factors/passkey.ts):
 * discoverable WebAuthn credentials that log their user in without a
 * password, through @simplewebauthn/server (attestation, COSE keys and
 * signatures are its work, never this file's).
 *
 * - The relying party is the tenant as the browser reached it, as for
 *   security keys (./webauthn.ts `relyingParty`): an answer made for another
 *   RP ID or on another origin is refused.
 * - A login's ceremony starts before anyone is named (the passkey button,
 *   or the browser's autofill), so its challenge cannot be kept against a
 *   user as a second factor's is. It is sealed instead (`PasskeyCeremony`)
 *   into the page's form, with the SHA-256 of the login transaction it was
 *   made for, what it is for, the user it is for (signup and enrolment),
 *   and when it ends: the page can neither read nor change it. An answer is
 *   accepted only for the transaction that posts it, before the end, and
 *   once: the challenge is spent in `one_time_uses` (shared by every
 *   process), so a replayed answer is refused.
 * - The credential named by the answer must be a passkey of this tenant
 *   (credential ids are looked up per tenant, so another tenant's passkey is
 *   unknown here), and the user handle the authenticator returns must be
 *   that credential's user (another user's handle with this credential is
 *   refused).
 * - User verification is required, at registration and at every login: a
 *   passkey stands alone.
 * - The sign counter moves forward with a conditional UPDATE (./webauthn.ts).
 * - A user has at most MAX_PASSKEYS passkeys (the service's limit).
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { isoAt } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { OneTimeUseStore } from '../one-time-use/store.js';
import type { MfaAuthenticatorRow } from '../rows.js';
import { secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import { FIRST_FACTOR, isFirstFactor } from './factors/registry.js';
import type { AuthenticatorType } from './model.js';
import { newAuthenticator } from './service.js';
import type { MfaAuthenticatorStore, MfaWebAuthnStore } from './store.js';
import { credentialJson, relyingParty, timeoutMs, transportsOf, verifiedAssertion } from './webauthn.js';

/** The most passkeys a user may have (the service's limit). */
export const MAX_PASSKEYS = 20;

/** What passkeys touch. */
export interface PasskeyContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: {
    readonly mfa: MfaAuthenticatorStore & MfaWebAuthnStore;
    readonly oneTimeUses: OneTimeUseStore;
  };
}

/** What a ceremony is for: logging in, creating a new user's first passkey, adding one to a logged-in user. */
export type PasskeyPurpose = 'login' | 'signup' | 'enrol';

/** A ceremony as sealed into the page: its challenge, transaction, purpose, user (id and name) and end (ms). */
interface PasskeyCeremony {
  c: string;
  t: string;
  p: PasskeyPurpose;
  u?: string;
  n?: string;
  e: number;
}

const sealContext = (tenantId: string) => `passkey_ceremony:${tenantId}`;
const SPENT = 'passkey_challenge';

function seal(ctx: PasskeyContext, tenant: Tenant, ceremony: PasskeyCeremony): string {
  return ctx.box.seal(JSON.stringify(ceremony), sealContext(tenant.id));
}

/** The sealed ceremony if it opens, is of this transaction and purpose, and has not ended. */
function opened(ctx: PasskeyContext, tenant: Tenant, sealed: string | undefined, transactionId: string, purpose: PasskeyPurpose): PasskeyCeremony | undefined {
  if (sealed === undefined || sealed.length > 2048) return undefined;
  let ceremony: PasskeyCeremony;
  try {
    ceremony = JSON.parse(ctx.box.openString(sealed, sealContext(tenant.id))) as PasskeyCeremony;
  } catch {
    return undefined;
  }
  if (ceremony.t !== secretHash(transactionId) || ceremony.p !== purpose || !(ctx.now() < ceremony.e)) return undefined;
  return ceremony;
}

/** The check handed to the library: the challenge signed is the sealed one, spent now (of two answers to it, one passes). */
function spender(ctx: PasskeyContext, tenant: Tenant, ceremony: PasskeyCeremony) {
  return async (challenge: string): Promise<boolean> =>
    challenge === ceremony.c && ctx.stores.oneTimeUses.use(tenant.id, SPENT, secretHash(challenge), isoAt(ceremony.e), isoAt(ctx.now()));
}

/** A ceremony's options and its sealed state, which the page posts back with the answer. */
export interface PasskeyCeremonyStart<O> {
  options: O;
  state: string;
}

/** The options of `navigator.credentials.get()` for a passkey login (the button or the browser's autofill): no credential named, the user verified. */
export async function passkeyLoginOptions(ctx: PasskeyContext, tenant: Tenant, transactionId: string): Promise<PasskeyCeremonyStart<PublicKeyCredentialRequestOptionsJSON>> {
  const rp = relyingParty(tenant);
  const options = await generateAuthenticationOptions({ rpID: rp.id, timeout: timeoutMs(tenant), userVerification: 'required' });
  const state = seal(ctx, tenant, { c: options.challenge, t: secretHash(transactionId), p: 'login', e: ctx.now() + timeoutMs(tenant) });
  return { options, state };
}

/** Who a new passkey is for: the user's id (the user handle) and the name the device shows. */
export interface PasskeyHolder {
  userId: string;
  name: string;
}

/**
 * The options of `navigator.credentials.create()` for a passkey of `holder`
 * (`signup`: a user made once the passkey is; `enrol`: a logged-in user,
 * whose passkeys are excluded): a discoverable credential, the user verified.
 */
export async function passkeyRegistrationOptions(
  ctx: PasskeyContext,
  tenant: Tenant,
  transactionId: string,
  purpose: 'signup' | 'enrol',
  holder: PasskeyHolder,
): Promise<PasskeyCeremonyStart<PublicKeyCredentialCreationOptionsJSON>> {
  const rp = relyingParty(tenant);
  const existing = purpose === 'enrol' ? await passkeysOf(ctx, tenant.id, holder.userId) : [];
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: holder.name,
    userID: new TextEncoder().encode(holder.userId),
    timeout: timeoutMs(tenant),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id!, ...(transportsOf(row) && { transports: transportsOf(row) }) })),
    authenticatorSelection: { residentKey: 'required', userVerification: FIRST_FACTOR.webauthn!.userVerification },
  });
  const state = seal(ctx, tenant, { c: options.challenge, t: secretHash(transactionId), p: purpose, u: holder.userId, n: holder.name, e: ctx.now() + timeoutMs(tenant) });
  return { options, state };
}

/** The user's passkeys. */
export async function passkeysOf(ctx: PasskeyContext, tenantId: string, userId: string): Promise<MfaAuthenticatorRow[]> {
  return (await ctx.stores.mfa.authenticators(tenantId, userId)).filter((row) => row.credential_id && isFirstFactor(row));
}

/** A verified new credential, not yet stored (a signup's user does not exist until it is). */
export interface NewPasskey {
  userId: string;
  /** The name the ceremony was made for (a signup's email). */
  name: string;
  credential_id: string;
  public_key: string;
  sign_count: number;
  transports: string | null;
  credential_device_type: string;
  credential_backed_up: number;
}

/**
 * The browser's answer to `passkeyRegistrationOptions`: the new passkey of
 * the sealed ceremony's user, or undefined (the ceremony is not this
 * transaction's or purpose's, has ended or was answered; the challenge,
 * origin, RP ID or user verification did not hold; the credential exists).
 */
export async function verifyPasskeyRegistration(ctx: PasskeyContext, tenant: Tenant, transactionId: string, purpose: 'signup' | 'enrol', sealed: string | undefined, answer: unknown): Promise<NewPasskey | undefined> {
  const ceremony = opened(ctx, tenant, sealed, transactionId, purpose);
  if (!ceremony?.u || !credentialJson(answer)) return undefined;
  const rp = relyingParty(tenant);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: answer as RegistrationResponseJSON,
      expectedChallenge: spender(ctx, tenant, ceremony),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
  } catch {
    return undefined;
  }
  if (!verified.verified) return undefined;
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  if (await ctx.stores.mfa.authenticatorByCredential(tenant.id, credential.id)) return undefined;
  return {
    userId: ceremony.u,
    name: ceremony.n ?? '',
    credential_id: credential.id,
    public_key: isoBase64URL.fromBuffer(credential.publicKey),
    sign_count: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
    credential_device_type: credentialDeviceType,
    credential_backed_up: credentialBackedUp ? 1 : 0,
  };
}

/** Stores a verified passkey of its (now existing) user; false when the user already has MAX_PASSKEYS. */
export async function storePasskey(ctx: PasskeyContext, tenantId: string, passkey: NewPasskey): Promise<MfaAuthenticatorRow | undefined> {
  if ((await passkeysOf(ctx, tenantId, passkey.userId)).length >= MAX_PASSKEYS) return undefined;
  const now = isoAt(ctx.now());
  const { userId, name: _name, ...credential } = passkey;
  const row = newAuthenticator(ctx, tenantId, userId, FIRST_FACTOR.type as AuthenticatorType, { confirmed: 1, enrolled_at: now, ...credential });
  await ctx.stores.mfa.insertAuthenticator(row);
  return row;
}

export type PasskeyLogin = { outcome: 'ok'; userId: string; passkey: MfaAuthenticatorRow } | { outcome: 'wrong'; userId?: string };

/**
 * The browser's answer to `passkeyLoginOptions`: `ok` with the user whose
 * passkey signed, or `wrong` (with the user when the credential named one,
 * for brute-force protection): the ceremony is not this transaction's, has
 * ended or was answered; the credential is not a passkey of this tenant;
 * the user handle names another user; the challenge, origin, RP ID,
 * signature, user verification or counter did not hold.
 */
export async function verifyPasskeyLogin(ctx: PasskeyContext, tenant: Tenant, transactionId: string, sealed: string | undefined, answer: unknown): Promise<PasskeyLogin> {
  const ceremony = opened(ctx, tenant, sealed, transactionId, 'login');
  const credential = credentialJson(answer);
  if (!ceremony || !credential) return { outcome: 'wrong' };
  const row = await ctx.stores.mfa.authenticatorByCredential(tenant.id, credential.id);
  if (!row || !isFirstFactor(row) || !row.public_key) return { outcome: 'wrong' };
  const userId = row.user_id;
  const handle = credential.response.userHandle;
  if (handle !== undefined && handle !== null && (typeof handle !== 'string' || handle !== isoBase64URL.fromUTF8String(userId))) return { outcome: 'wrong', userId };
  const newCounter = await verifiedAssertion(ctx, tenant, row, answer, spender(ctx, tenant, ceremony), true);
  if (newCounter === undefined) return { outcome: 'wrong', userId };
  return { outcome: 'ok', userId, passkey: { ...row, sign_count: newCounter } };
}
