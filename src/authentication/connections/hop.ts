/**
 * The last hop of a federated login. An upstream answers cross-site (a SAML
 * Response or an OpenID Connect form post), where the browser-binding cookie
 * (SameSite=Lax) does not come along: the callback verifies the answer,
 * makes or refreshes the user, seals the verified login (AES-GCM under the
 * master key, bound to the tenant and the transaction, two minutes) and sends
 * the browser on with a 303 to `GET /login/callback?state=…&login=…`, a
 * top-level GET that carries the cookie. There the federated step
 * (../interaction/steps/federated.ts) starts the session and completes the
 * step: only the browser that started the transaction finishes it, which
 * defeats login CSRF.
 */
import type { FastifyReply } from 'fastify';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';

/** How long the sealed login of the 303 hop may be used. */
const HOP_LIFETIME_MS = 120_000;

/** The step a federated login completes: `enterprise` when the request named the connection, `login` after home realm discovery. */
/** What the hop touches: the master key's box that seals it, and the clock that bounds it. */
export interface HopContext {
  readonly box: SecretBox;
  readonly now: () => number;
}

export type FederatedStepName = 'enterprise' | 'login';

export interface SealedLogin {
  user_id: string;
  step: FederatedStepName;
  exp: number;
}

const hopContext = (tenant: Tenant, transactionId: string) => `federated login:${tenant.id}:${secretHash(transactionId)}`;

/** The sealed verified login of a transaction: the user to log in and the step it completes, for two minutes. */
export function sealLogin(ctx: HopContext, tenant: Tenant, transactionId: string, userId: string, step: FederatedStepName): string {
  const login: SealedLogin = { user_id: userId, step, exp: ctx.now() + HOP_LIFETIME_MS };
  return ctx.box.seal(JSON.stringify(login), hopContext(tenant, transactionId));
}

export function openLogin(ctx: HopContext, tenant: Tenant, transactionId: string, sealed: string | undefined): SealedLogin | undefined {
  if (!sealed || sealed.length > 2048) return undefined;
  try {
    const login = JSON.parse(ctx.box.openString(sealed, hopContext(tenant, transactionId))) as SealedLogin;
    return login.exp > ctx.now() ? login : undefined;
  } catch {
    return undefined;
  }
}

/** The 303 to the hop's GET for a verified login. */
export function sendHop(ctx: HopContext, reply: FastifyReply, tenant: Tenant, transactionId: string, userId: string, step: FederatedStepName): FastifyReply {
  const next = `/login/callback?${new URLSearchParams({ state: transactionId, login: sealLogin(ctx, tenant, transactionId, userId, step) })}`;
  return reply.code(303).header('Location', next).header('Cache-Control', 'no-store').send();
}
