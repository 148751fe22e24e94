/**
 * Push notifications as a second factor: Gatehouse's device protocol, in
 * the manner of Auth0 Guardian (README "MFA by push notification").
 *
 * - Enrolment: POST /mfa/associate with the `auth0` channel creates an
 *   unconfirmed `push` enrolment and an enrolment transaction; its
 *   `barcode_uri` (shown as a QR code) carries `enrollment_tx_id` and
 *   `base_url`. The device posts its push token and its public key (an
 *   ES256 or RS256 JWK) to `{base_url}/api/enroll` with
 *   `Authorization: Ticket id="{enrollment_tx_id}"`: the enrolment is
 *   confirmed and the enrolment's `oob_code` completes the login.
 * - Login: a challenge creates a transaction (`txn_…`, the notification
 *   carries it) and an `oob_code` the client polls with (mfa-oob grant):
 *   `pending` until the device answers, `slow_down` when polled faster than
 *   PUSH_POLL_INTERVAL, then approved (tokens) or denied.
 * - The device fetches a transaction (`GET {base_url}/api/transactions/…`)
 *   and answers it (`POST {base_url}/api/resolve-transaction`) with a JWT
 *   signed by its enrolled key: `iss` its enrolment id, `sub` the
 *   transaction id, `aud` the endpoint's URL, `iat`/`exp` (at most five
 *   minutes apart), and for an answer `auth0_guardian_method: "push"` and
 *   `auth0_guardian_accepted` true (approve) or false (deny). A bad
 *   signature, another device's key, a wrong audience or an expired JWT
 *   changes nothing.
 *
 * Transaction ids and oob_codes are kept as SHA-256; the push token is
 * sealed under the tenant and enrolment; only the public key is kept.
 */
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { isoAt } from '../../platform/clock.js';
import { lifetimeOf } from '../lifetimes.js';
import type { MfaChallengeRow } from '../rows.js';
import { newSecret, secretHash } from '../secrets.js';
import type { Tenant } from '../tenants/tenant.js';
import type { UserRow } from '../users/model.js';
import { pushTokenContext, type Authenticator } from './model.js';
import { accountLabel, blocked, confirmRecoveryCode, dropPending, newAuthenticator, succeeded, totpIssuer, wrong, type MfaContext, type Verification } from './service.js';
import type { BackchannelAuthRequestStore } from '../backchannel-authentication/store.js';
import type { MfaPushStore } from './store.js';
import { factorOf } from './factors/registry.js';

/** Seconds a client waits between polls of a push challenge (the service's 5). */
export const PUSH_POLL_INTERVAL = 5;
/** The longest a device's JWT may live (exp - iat), seconds. */
const MAX_DEVICE_JWT_SECONDS = 300;
const MAX_JWT_LENGTH = 8192;

export const PUSH_SERVICES = ['APNS', 'GCM'] as const;
export type PushService = (typeof PUSH_SERVICES)[number];

const ENROLMENT_PREFIX = 'etx_';
const TRANSACTION_PREFIX = 'txn_';

/** `https://{domain}/guardian`: the base URL of the device API (its endpoints are under `/api/`). */
export function pushBaseUrl(tenant: Tenant): string {
  return `${tenant.issuer}guardian`;
}

/** What push transactions touch. */
export interface PushContext extends MfaContext {
  readonly stores: MfaContext['stores'] & {
    readonly backchannelAuthRequests: BackchannelAuthRequestStore;
    readonly mfa: MfaContext['stores']['mfa'] & MfaPushStore;
  };
}

function challengeRow(tenant: Tenant, ctx: PushContext, authenticator: { id: string; user_id: string }, clientId: string, oobCode: string, transactionId: string) {
  return {
    tenant_id: tenant.id,
    oob_hash: secretHash(oobCode),
    authenticator_id: authenticator.id,
    user_id: authenticator.user_id,
    client_id: clientId,
    // No binding code: a push is answered on the device. A hash nobody knows the preimage of.
    binding_hash: secretHash(newSecret()),
    expires_at: isoAt(ctx.now() + lifetimeOf(tenant, 'mfa_oob_code') * 1000),
    status: 'pending',
    transaction_hash: secretHash(transactionId),
    last_polled_at: null,
  };
}

/** A new, unconfirmed push enrolment of the user (replacing an unfinished one) and its enrolment transaction. */
export async function startPushEnrolment(ctx: PushContext, tenant: Tenant, user: UserRow, clientId: string): Promise<{ oobCode: string; barcodeUri: string }> {
  await dropPending(ctx, tenant.id, user.user_id, 'push');
  const authenticator = newAuthenticator(ctx, tenant.id, user.user_id, 'push');
  await ctx.stores.mfa.insertAuthenticator(authenticator);
  const oobCode = newSecret();
  const enrolmentId = `${ENROLMENT_PREFIX}${newSecret()}`;
  await ctx.stores.mfa.insertChallenge(challengeRow(tenant, ctx, authenticator, clientId, oobCode, enrolmentId));
  const issuer = totpIssuer(tenant);
  const query = new URLSearchParams({ enrollment_tx_id: enrolmentId, base_url: pushBaseUrl(tenant), issuer });
  return { oobCode, barcodeUri: `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(accountLabel(user))}?${query}` };
}

/** Why `value` cannot be a device's public key, else the key's public members and its JWS algorithm. */
export async function devicePublicKey(value: unknown): Promise<{ jwk: JWK; alg: 'ES256' | 'RS256' } | { problem: string }> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { problem: 'public_key must be a JWK object' };
  const key = value as Record<string, unknown>;
  if (['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'].some((m) => m in key)) return { problem: 'public_key must not carry private members' };
  let jwk: JWK;
  let alg: 'ES256' | 'RS256';
  if (key.kty === 'EC') {
    if (key.crv !== 'P-256' || typeof key.x !== 'string' || typeof key.y !== 'string' || key.x.length !== 43 || key.y.length !== 43) return { problem: 'an EC public_key must be a P-256 key (crv, x, y)' };
    jwk = { kty: 'EC', crv: 'P-256', x: key.x, y: key.y };
    alg = 'ES256';
  } else if (key.kty === 'RSA') {
    if (typeof key.n !== 'string' || typeof key.e !== 'string' || key.e.length > 8) return { problem: 'an RSA public_key needs n and e' };
    const bits = Buffer.from(key.n, 'base64url').length * 8;
    if (bits < 2048 || bits > 4096) return { problem: 'an RSA public_key must have 2048 to 4096 bits' };
    jwk = { kty: 'RSA', n: key.n, e: key.e };
    alg = 'RS256';
  } else {
    return { problem: 'public_key must be an EC (ES256) or RSA (RS256) JWK' };
  }
  if (key.alg !== undefined && key.alg !== alg) return { problem: `public_key alg must be ${alg}` };
  try {
    await importJWK(jwk, alg);
  } catch {
    return { problem: 'public_key is not a valid key' };
  }
  return { jwk, alg };
}

export interface DeviceEnrolment {
  name: string | null;
  service: PushService;
  token: string;
  publicKey: JWK;
}

/**
 * The device of the enrolment transaction `enrolmentId`: recorded, the
 * enrolment confirmed (with the user's recovery code) and the enrolment's
 * oob_code approved. Undefined when the transaction is unknown, expired or
 * already answered.
 */
export async function enrolPushDevice(ctx: PushContext, tenant: Tenant, enrolmentId: string, device: DeviceEnrolment): Promise<Authenticator | undefined> {
  if (!enrolmentId.startsWith(ENROLMENT_PREFIX) || enrolmentId.length > 100) return undefined;
  const challenge = await ctx.stores.mfa.challengeByTransaction(tenant.id, secretHash(enrolmentId));
  const now = isoAt(ctx.now());
  if (!challenge || challenge.status !== 'pending' || challenge.used_at !== null || challenge.expires_at <= now) return undefined;
  const recorded = await ctx.stores.mfa.setPushDevice(
    tenant.id,
    challenge.authenticator_id,
    {
      name: device.name,
      push_service: device.service,
      push_token_enc: ctx.box.seal(device.token, pushTokenContext(tenant.id, challenge.authenticator_id), tenant.id),
      public_key: JSON.stringify(device.publicKey),
    },
    now,
  );
  if (!recorded) return undefined;
  await confirmRecoveryCode(ctx, tenant.id, challenge.user_id, now);
  await ctx.stores.mfa.resolveChallenge(tenant.id, secretHash(enrolmentId), 'approved', now);
  return (await ctx.stores.mfa.authenticator(tenant.id, challenge.authenticator_id)) as Authenticator;
}

/** The device's push token, opened. */
export function devicePushToken(ctx: PushContext, tenantId: string, authenticator: Authenticator): string {
  return ctx.box.openString(authenticator.push_token_enc!, pushTokenContext(tenantId, authenticator.id));
}

/**
 * A login transaction for the confirmed push enrolment: `notify` sends the
 * transaction id to the device; should it fail, the challenge is left to
 * expire unanswered. Returns the oob_code the client polls with.
 */
export async function startPushChallenge(
  ctx: PushContext,
  tenant: Tenant,
  authenticator: Authenticator,
  clientId: string,
  notify: (transactionId: string, expiresAt: number) => Promise<void>,
): Promise<string> {
  const oobCode = newSecret();
  const transactionId = `${TRANSACTION_PREFIX}${newSecret()}`;
  const row = challengeRow(tenant, ctx, authenticator, clientId, oobCode, transactionId);
  await ctx.stores.mfa.insertChallenge(row);
  await notify(transactionId, Date.parse(row.expires_at));
  return oobCode;
}

export type DeviceRefusal = 'invalid_token' | 'not_found';

export interface DeviceTransaction {
  challenge: MfaChallengeRow;
  authenticator: Authenticator;
  claims: Record<string, unknown>;
}

/**
 * A device's signed request about a login transaction: the JWT's `sub`
 * names the transaction, `iss` the enrolment it was sent to, whose key must
 * have signed it for `audience`. Refused: `invalid_token` (unreadable, bad
 * signature, another device, wrong audience, expired or too long-lived),
 * `not_found` (no such live transaction).
 */
export async function deviceTransaction(ctx: PushContext, tenant: Tenant, jwt: string, audience: string): Promise<DeviceTransaction | DeviceRefusal> {
  if (jwt.length > MAX_JWT_LENGTH) return 'invalid_token';
  let unverified: { iss?: unknown; sub?: unknown };
  try {
    decodeProtectedHeader(jwt);
    unverified = decodeJwt(jwt);
  } catch {
    return 'invalid_token';
  }
  if (typeof unverified.sub !== 'string' || !unverified.sub.startsWith(TRANSACTION_PREFIX) || unverified.sub.length > 100 || typeof unverified.iss !== 'string') return 'invalid_token';
  const challenge = await ctx.stores.mfa.challengeByTransaction(tenant.id, secretHash(unverified.sub));
  if (!challenge || challenge.used_at !== null || challenge.expires_at <= isoAt(ctx.now())) return 'not_found';
  const authenticator = (await ctx.stores.mfa.authenticator(tenant.id, challenge.authenticator_id)) as Authenticator | undefined;
  if (!authenticator || factorOf(authenticator)?.challenge !== 'push' || !authenticator.public_key || unverified.iss !== authenticator.id) return 'invalid_token';
  const jwk = JSON.parse(authenticator.public_key) as JWK;
  const alg = jwk.kty === 'EC' ? 'ES256' : 'RS256';
  try {
    const { payload } = await jwtVerify(jwt, await importJWK(jwk, alg), {
      algorithms: [alg],
      audience,
      issuer: authenticator.id,
      subject: unverified.sub,
      requiredClaims: ['iat', 'exp'],
      currentDate: new Date(ctx.now()),
      clockTolerance: 30,
      maxTokenAge: MAX_DEVICE_JWT_SECONDS,
    });
    if ((payload.exp as number) - (payload.iat as number) > MAX_DEVICE_JWT_SECONDS) return 'invalid_token';
    return { challenge, authenticator, claims: payload as Record<string, unknown> };
  } catch {
    return 'invalid_token';
  }
}

/**
 * Approves or denies the transaction as the device's JWT says; false when
 * it was already answered. A CIBA request asked on the `guardian-push`
 * channel (its ticket is the transaction id) is decided with it.
 */
export async function resolvePushTransaction(ctx: PushContext, tenant: Tenant, transaction: DeviceTransaction, accepted: boolean): Promise<boolean> {
  const transactionHash = transaction.challenge.transaction_hash!;
  const now = isoAt(ctx.now());
  const decision = accepted ? 'approved' : 'denied';
  if (!(await ctx.stores.mfa.resolveChallenge(tenant.id, transactionHash, decision, now))) return false;
  const ciba = await ctx.stores.backchannelAuthRequests.findByTicket(tenant.id, transactionHash);
  if (ciba && ciba.status === 'pending' && ciba.user_id === transaction.challenge.user_id) await ctx.stores.backchannelAuthRequests.decide(tenant.id, ciba.id, now, decision);
  return true;
}

/**
 * Where the push challenge `oobCode` of this user and client stands, without
 * touching it (no poll recorded, nothing spent, no wrong attempt counted):
 * `pending` while unanswered and live, `done` once answered, spent or
 * expired (a poll then says which), `unknown` when there is no such push
 * challenge for them.
 */
export async function pushChallengeStatus(ctx: PushContext, tenantId: string, userId: string, clientId: string, oobCode: string): Promise<'pending' | 'done' | 'unknown'> {
  const challenge = oobCode === '' ? undefined : await ctx.stores.mfa.challenge(tenantId, secretHash(oobCode));
  if (!challenge || challenge.user_id !== userId || challenge.client_id !== clientId || challenge.status === null || challenge.status === undefined) return 'unknown';
  return challenge.status === 'pending' && challenge.used_at === null && challenge.expires_at > isoAt(ctx.now()) ? 'pending' : 'done';
}

export type PushPoll = Verification | { outcome: 'pending' } | { outcome: 'slow_down' } | { outcome: 'denied' } | { outcome: 'not_push' };

/**
 * A poll of the push challenge `oobCode` by the user and client it was made
 * for: `pending` while unanswered, `slow_down` when `paced` and the previous
 * poll was less than PUSH_POLL_INTERVAL ago, `denied`, or, once approved,
 * the challenge spent and the second factor passed. `not_push`: the
 * challenge wants a binding code.
 */
export async function pollPushChallenge(ctx: PushContext, tenantId: string, userId: string, clientId: string, oobCode: string, paced: boolean): Promise<PushPoll> {
  if (await blocked(ctx, tenantId, userId)) return { outcome: 'blocked' };
  const oobHash = secretHash(oobCode);
  const challenge = await ctx.stores.mfa.challenge(tenantId, oobHash);
  const now = ctx.now();
  if (!challenge || challenge.user_id !== userId || challenge.client_id !== clientId) return wrong(ctx, tenantId, userId);
  if (challenge.status === null || challenge.status === undefined) return { outcome: 'not_push' };
  if (challenge.used_at !== null || challenge.expires_at <= isoAt(now)) return wrong(ctx, tenantId, userId);
  if (paced && !(await ctx.stores.mfa.pollChallenge(tenantId, oobHash, isoAt(now), isoAt(now - PUSH_POLL_INTERVAL * 1000)))) return { outcome: 'slow_down' };
  if (challenge.status === 'pending') return { outcome: 'pending' };
  if (challenge.status === 'denied') return { outcome: 'denied' };
  if (!(await ctx.stores.mfa.spendChallenge(tenantId, oobHash, isoAt(now)))) return wrong(ctx, tenantId, userId);
  const authenticator = (await ctx.stores.mfa.authenticator(tenantId, challenge.authenticator_id)) as Authenticator | undefined;
  if (!authenticator || authenticator.user_id !== userId) return wrong(ctx, tenantId, userId);
  return succeeded(ctx, tenantId, authenticator);
}
