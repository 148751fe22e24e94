/**
 * The rules of multi-factor authentication, shared by the token endpoint's
 * MFA grants, the /mfa API, the hosted login's MFA step and the Management
 * API's enrolment operations:
 *
 * - when a login needs a second factor (`mfaRequired`): a factor that can
 *   be used as one (otp, email, sms) must be enabled; then the
 *   `all-applications` policy, or the request forcing it (`acr_values`
 *   multi-factor, the MFA API audience), requires it of everyone. Gatehouse
 *   has no risk engine, so `confidence-score` requires it of the users who
 *   have a confirmed factor and never sends the others to enrolment;
 * - enrolment: a TOTP secret (confirmed by its first code), an email
 *   address or phone number (confirmed by the first challenge answered);
 *   the first enrolment also gets a recovery code when that factor is on;
 * - verification: a TOTP code is accepted once (one_time_uses, per
 *   authenticator and time step); an out-of-band binding code once, before
 *   it expires, by the user and client it was sent for; a recovery code
 *   once, and a new one replaces it. MAX_CODE_FAILURES wrong codes in
 *   FAILURE_WINDOW_SECONDS refuse every further code of the user (right or
 *   wrong) until the window ends; a right code starts the count again.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId, randomString } from '../../platform/crypto/ids.js';
import { lifetimeOf } from '../lifetimes.js';
import type { MfaAuthenticatorRow } from '../rows.js';
import { newSecret, secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import type { UserRow } from '../users/model.js';
import { totpSecretContext, type Authenticator, type AuthenticatorType, type FactorName, type MfaPolicy } from './model.js';
import { factorEnabled, factorOf, factorOfType, isRecoveryCode, RECOVERY_CODE_FACTOR, SECOND_FACTORS } from './factors/registry.js';
import { newTotpSecret, totpStep, totpStepExpiry, totpUri } from './totp.js';
import type { MfaAuthenticatorStore, MfaChallengeStore, MfaFailureStore, MfaRecoveryCodeStore, MfaSettingsStore } from './store.js';
import type { OneTimeUseStore } from '../one-time-use/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** Wrong codes that block a user's second factor… */
export const MAX_CODE_FAILURES = 5;
/** …within this window, seconds from the first of them. */
export const FAILURE_WINDOW_SECONDS = 900;

/** The factors that can be a login's second factor (recovery codes only stand in for one). */
const LOGIN_FACTORS = SECOND_FACTORS.filter((f) => f.secondFactor);

export interface MfaSettings {
  factors: Set<FactorName>;
  policies: MfaPolicy[];
}

export type Verification = { outcome: 'ok'; authenticator: Authenticator } | { outcome: 'wrong' } | { outcome: 'blocked' };

/** What the rules of second factors touch. */
export interface MfaContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly stores: {
    readonly mfa: MfaSettingsStore & MfaAuthenticatorStore & MfaRecoveryCodeStore & MfaChallengeStore & MfaFailureStore;
    readonly oneTimeUses: OneTimeUseStore;
  };
}

export async function mfaSettings(ctx: MfaContext, tenantId: string): Promise<MfaSettings> {
  const [factors, policies] = await Promise.all([ctx.stores.mfa.enabledFactors(tenantId), ctx.stores.mfa.policies(tenantId)]);
  return { factors, policies };
}

/** Whether any factor that can be a second factor is enabled. */
export function mfaAvailable(settings: MfaSettings): boolean {
  return LOGIN_FACTORS.some((f) => factorEnabled(settings.factors, f));
}

/** The user's enrolments whose factor is enabled. */
export async function usableAuthenticators(ctx: MfaContext, tenantId: string, userId: string, settings?: MfaSettings): Promise<Authenticator[]> {
  const { factors } = settings ?? (await mfaSettings(ctx, tenantId));
  const rows = (await ctx.stores.mfa.authenticators(tenantId, userId)) as Authenticator[];
  return rows.filter((row) => {
    const factor = factorOf(row);
    return factor !== undefined && factorEnabled(factors, factor);
  });
}

/** The confirmed enrolments that can be a second factor (not the recovery code). */
export function secondFactors(authenticators: readonly Authenticator[]): Authenticator[] {
  return authenticators.filter((a) => a.confirmed === 1 && factorOf(a)?.secondFactor === true);
}

/** Whether this login of the user needs a second factor (see the file comment). `forced`: the request asks for one. */
export async function mfaRequired(ctx: MfaContext, tenantId: string, userId: string, forced: boolean): Promise<boolean> {
  const settings = await mfaSettings(ctx, tenantId);
  if (!mfaAvailable(settings)) return false;
  if (forced || settings.policies.includes('all-applications')) return true;
  if (!settings.policies.includes('confidence-score')) return false;
  return secondFactors(await usableAuthenticators(ctx, tenantId, userId, settings)).length > 0;
}

export function newAuthenticator(ctx: Pick<MfaContext, 'now'>, tenantId: string, userId: string, type: AuthenticatorType, fields: Partial<MfaAuthenticatorRow> = {}): MfaAuthenticatorRow {
  return {
    tenant_id: tenantId,
    id: newPrefixedId('dev', 16),
    user_id: userId,
    type,
    confirmed: 0,
    name: null,
    email: null,
    phone_number: null,
    secret_enc: null,
    code_hash: null,
    created_at: isoAt(ctx.now()),
    enrolled_at: null,
    last_auth_at: null,
    ...fields,
  };
}

/** 24 characters of A-Z and 0-9, as the service's recovery codes (wire notes §13). */
function newRecoveryCode(): string {
  return randomString(24, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789');
}

/** What a user may type for a recovery code: case, spaces and dashes do not matter. */
function normalisedRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

/** The label of the user in an authenticator app: their email, else username, else id. */
export function accountLabel(user: UserRow): string {
  return user.email ?? user.username ?? user.user_id;
}

/** The issuer shown in authenticator apps: the tenant's friendly name if set, else its name. */
export function totpIssuer(tenant: Tenant): string {
  const friendly = (tenant.settings as { friendly_name?: unknown }).friendly_name;
  return typeof friendly === 'string' && friendly !== '' ? friendly : tenant.name;
}

/**
 * A new, unconfirmed TOTP enrolment (replacing an earlier unconfirmed one):
 * the secret and its `otpauth://` URI, once; only the sealed secret is kept.
 */
export async function startTotpEnrolment(ctx: MfaContext, tenant: Tenant, user: UserRow): Promise<{ authenticator: MfaAuthenticatorRow; secret: string; barcodeUri: string }> {
  await dropPending(ctx, tenant.id, user.user_id, 'totp');
  const secret = newTotpSecret();
  const authenticator = newAuthenticator(ctx, tenant.id, user.user_id, 'totp');
  authenticator.secret_enc = ctx.box.seal(secret, totpSecretContext(tenant.id, authenticator.id), tenant.id);
  await ctx.stores.mfa.insertAuthenticator(authenticator);
  return { authenticator, secret, barcodeUri: totpUri(secret, totpIssuer(tenant), accountLabel(user)) };
}

/** Removes the user's unconfirmed enrolments of `type`: a new enrolment replaces an unfinished one. */
export async function dropPending(ctx: MfaContext, tenantId: string, userId: string, type: AuthenticatorType): Promise<void> {
  for (const row of await ctx.stores.mfa.authenticators(tenantId, userId)) {
    if (row.type === type && row.confirmed === 0) await ctx.stores.mfa.deleteAuthenticator(tenantId, userId, row.id);
  }
}

/**
 * A new email or phone enrolment of the user (replacing an unfinished one of
 * that type) whose first challenge is sent through `deliver`; should sending
 * fail, the enrolment is removed again. Returns the challenge's oob_code.
 */
export async function startOobEnrolment(
  ctx: MfaContext,
  tenant: Tenant,
  userId: string,
  clientId: string,
  type: 'email' | 'phone',
  address: string,
  deliver: (authenticator: Authenticator) => (bindingCode: string) => Promise<void>,
): Promise<string> {
  await dropPending(ctx, tenant.id, userId, type);
  const authenticator = (await addOobAuthenticator(ctx, tenant.id, userId, type, address)) as Authenticator;
  try {
    return await startOobChallenge(ctx, tenant, authenticator, clientId, deliver(authenticator));
  } catch (error) {
    await ctx.stores.mfa.deleteAuthenticator(tenant.id, userId, authenticator.id);
    throw error;
  }
}

/** A TOTP enrolment from a secret given by an administrator, confirmed at once (POST /users/{id}/authentication-methods). */
export async function addTotpAuthenticator(ctx: MfaContext, tenant: Tenant, userId: string, secret: string, name: string | null): Promise<MfaAuthenticatorRow> {
  const now = isoAt(ctx.now());
  const authenticator = newAuthenticator(ctx, tenant.id, userId, 'totp', { confirmed: 1, enrolled_at: now, name });
  authenticator.secret_enc = ctx.box.seal(secret, totpSecretContext(tenant.id, authenticator.id), tenant.id);
  await ctx.stores.mfa.insertAuthenticator(authenticator);
  return authenticator;
}

/** A new email or phone enrolment: unconfirmed until its first challenge is answered, unless `confirmed`. */
export async function addOobAuthenticator(
  ctx: MfaContext,
  tenantId: string,
  userId: string,
  type: 'email' | 'phone',
  address: string,
  options: { confirmed?: boolean; name?: string | null } = {},
): Promise<MfaAuthenticatorRow> {
  const now = isoAt(ctx.now());
  const authenticator = newAuthenticator(ctx, tenantId, userId, type, {
    [factorOfType(type)!.settable!.member]: address,
    ...(options.confirmed && { confirmed: 1, enrolled_at: now }),
    name: options.name ?? null,
  });
  await ctx.stores.mfa.insertAuthenticator(authenticator);
  return authenticator;
}

/**
 * The user's first recovery code, when the recovery-code factor is enabled
 * and the user has none yet; undefined otherwise. Shown once: only its hash
 * is kept. Usable once a second factor is confirmed.
 */
export async function firstRecoveryCode(ctx: MfaContext, tenantId: string, userId: string): Promise<string | undefined> {
  if (!factorEnabled(await ctx.stores.mfa.enabledFactors(tenantId), RECOVERY_CODE_FACTOR)) return undefined;
  const rows = await ctx.stores.mfa.authenticators(tenantId, userId);
  if (rows.some(isRecoveryCode)) return undefined;
  const code = newRecoveryCode();
  const confirmed = rows.some((r) => r.confirmed === 1 && !isRecoveryCode(r));
  await ctx.stores.mfa.replaceRecoveryCode(
    newAuthenticator(ctx, tenantId, userId, 'recovery-code', { code_hash: secretHash(code), ...(confirmed && { confirmed: 1, enrolled_at: isoAt(ctx.now()) }) }),
  );
  return code;
}

/** A new recovery code in place of the user's current one (POST /users/{id}/recovery-code-regeneration). */
export async function regenerateRecoveryCode(ctx: MfaContext, tenantId: string, userId: string): Promise<string> {
  const code = newRecoveryCode();
  const now = isoAt(ctx.now());
  await ctx.stores.mfa.replaceRecoveryCode(newAuthenticator(ctx, tenantId, userId, 'recovery-code', { code_hash: secretHash(code), confirmed: 1, enrolled_at: now }));
  return code;
}

/** The start of the failure window that is still running at now. */
function windowStart(ctx: MfaContext): string {
  return isoAt(ctx.now() - FAILURE_WINDOW_SECONDS * 1000);
}

export async function blocked(ctx: MfaContext, tenantId: string, userId: string): Promise<boolean> {
  return (await ctx.stores.mfa.failures(tenantId, userId, windowStart(ctx))) >= MAX_CODE_FAILURES;
}

export async function wrong(ctx: MfaContext, tenantId: string, userId: string): Promise<{ outcome: 'wrong' }> {
  await ctx.stores.mfa.recordFailure(tenantId, userId, isoAt(ctx.now()), windowStart(ctx));
  return { outcome: 'wrong' };
}

/** The user's unconfirmed recovery code is confirmed with their first second factor. */
export async function confirmRecoveryCode(ctx: MfaContext, tenantId: string, userId: string, now: string): Promise<void> {
  for (const row of await ctx.stores.mfa.authenticators(tenantId, userId)) {
    if (isRecoveryCode(row) && row.confirmed === 0) await ctx.stores.mfa.confirmAuthenticator(tenantId, row.id, now);
  }
}

/** A right code: the enrolment is confirmed (with the user's recovery code) if it was not, its use recorded, the count of wrong codes cleared. */
export async function succeeded(ctx: MfaContext, tenantId: string, authenticator: Authenticator): Promise<Verification> {
  const now = isoAt(ctx.now());
  const { mfa } = ctx.stores;
  if (authenticator.confirmed === 0 && (await mfa.confirmAuthenticator(tenantId, authenticator.id, now))) await confirmRecoveryCode(ctx, tenantId, authenticator.user_id, now);
  await mfa.touchAuthenticator(tenantId, authenticator.id, now);
  await mfa.clearFailures(tenantId, authenticator.user_id);
  return { outcome: 'ok', authenticator: { ...authenticator, confirmed: 1 } };
}

/**
 * A TOTP code of the user, against each of their TOTP enrolments (the
 * unconfirmed one included: its first code confirms it). A code already
 * accepted for that enrolment and time step is wrong.
 */
export async function verifyTotp(ctx: MfaContext, tenantId: string, userId: string, code: string): Promise<Verification> {
  if (await blocked(ctx, tenantId, userId)) return { outcome: 'blocked' };
  const totps = (await usableAuthenticators(ctx, tenantId, userId)).filter((a) => factorOf(a)?.challenge === 'code' && a.secret_enc !== null);
  for (const authenticator of totps) {
    const secret = ctx.box.openString(authenticator.secret_enc!, totpSecretContext(tenantId, authenticator.id));
    const step = totpStep(secret, code, ctx.now());
    if (step === undefined) continue;
    const fresh = await ctx.stores.oneTimeUses.use(tenantId, 'mfa_otp', secretHash(`${authenticator.id}:${step}`), isoAt(totpStepExpiry(step)), isoAt(ctx.now()));
    if (!fresh) break;
    return succeeded(ctx, tenantId, authenticator);
  }
  return wrong(ctx, tenantId, userId);
}

/** Six digits, the binding code of an out-of-band challenge. */
function newBindingCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * An out-of-band challenge of an email or phone enrolment, for `clientId`:
 * the binding code goes to the user through `deliver`; the returned oob_code
 * names the challenge. Both are kept as hashes only.
 */
export async function startOobChallenge(
  ctx: MfaContext,
  tenant: Tenant,
  authenticator: Authenticator,
  clientId: string,
  deliver: (bindingCode: string) => Promise<void>,
): Promise<string> {
  const oobCode = newSecret();
  const bindingCode = newBindingCode();
  await ctx.stores.mfa.insertChallenge({
    tenant_id: tenant.id,
    oob_hash: secretHash(oobCode),
    authenticator_id: authenticator.id,
    user_id: authenticator.user_id,
    client_id: clientId,
    binding_hash: secretHash(bindingCode),
    expires_at: isoAt(ctx.now() + lifetimeOf(tenant, 'mfa_oob_code') * 1000),
  });
  await deliver(bindingCode);
  return oobCode;
}

function sameHash(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y);
}

/**
 * The binding code of the challenge `oobCode`: right only for the user and
 * client it was sent for, before it expires, once.
 */
export async function verifyOob(ctx: MfaContext, tenantId: string, userId: string, clientId: string, oobCode: string, bindingCode: string): Promise<Verification> {
  if (await blocked(ctx, tenantId, userId)) return { outcome: 'blocked' };
  const oobHash = secretHash(oobCode);
  const challenge = await ctx.stores.mfa.challenge(tenantId, oobHash);
  if (!challenge || challenge.user_id !== userId || challenge.client_id !== clientId) return wrong(ctx, tenantId, userId);
  if (!sameHash(challenge.binding_hash, secretHash(bindingCode))) return wrong(ctx, tenantId, userId);
  if (!(await ctx.stores.mfa.spendChallenge(tenantId, oobHash, isoAt(ctx.now())))) return wrong(ctx, tenantId, userId);
  const authenticator = (await ctx.stores.mfa.authenticator(tenantId, challenge.authenticator_id)) as Authenticator | undefined;
  if (!authenticator || authenticator.user_id !== userId) return wrong(ctx, tenantId, userId);
  return succeeded(ctx, tenantId, authenticator);
}

/** A recovery code of the user: spent, and a new one returned in its place. */
export async function useRecoveryCode(ctx: MfaContext, tenantId: string, userId: string, code: string): Promise<{ outcome: 'ok'; next: string } | { outcome: 'wrong' } | { outcome: 'blocked' }> {
  if (await blocked(ctx, tenantId, userId)) return { outcome: 'blocked' };
  if (!factorEnabled(await ctx.stores.mfa.enabledFactors(tenantId), RECOVERY_CODE_FACTOR)) return wrong(ctx, tenantId, userId);
  const rows = await ctx.stores.mfa.authenticators(tenantId, userId);
  if (!rows.some((r) => isRecoveryCode(r) && r.confirmed === 1)) return wrong(ctx, tenantId, userId);
  const next = newRecoveryCode();
  const now = isoAt(ctx.now());
  const row = newAuthenticator(ctx, tenantId, userId, 'recovery-code', { code_hash: secretHash(next), confirmed: 1, enrolled_at: now, last_auth_at: now });
  if (!(await ctx.stores.mfa.spendRecoveryCode(tenantId, userId, secretHash(normalisedRecoveryCode(code)), row))) return wrong(ctx, tenantId, userId);
  await ctx.stores.mfa.clearFailures(tenantId, userId);
  return { outcome: 'ok', next };
}
