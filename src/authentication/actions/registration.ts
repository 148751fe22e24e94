/**
 * The registration triggers of a database signup (actions-wire-notes §2.5,
 * §2.6): pre-user-registration before the user is created (a deny refuses
 * the signup with the action's message for the user, the reason kept in the
 * tenant log; metadata set is the new user's), post-user-registration after
 * it, asynchronously (nothing it does changes the signup).
 */
import type { FastifyRequest } from 'fastify';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { eventUser, withoutSecrets, type EventRequest } from '../../domain/actions-runtime/triggers/event-parts.js';
import { postUserRegistration } from '../../domain/actions-runtime/triggers/after-the-fact.js';
import { preUserRegistration, type PreUserRegistrationOutcome } from '../../domain/actions-runtime/triggers/pre-user-registration.js';
import type { UserRow } from '../../domain/users/rows.js';

/** Signups are database signups. */
const DATABASE_STRATEGY = 'auth0';

interface DatabaseConnection {
  id: string;
  name: string;
}

export interface RegistrationActionsContext {
  readonly actions: ActionsRuntime;
}

/** `event.request` of a trigger run for a request (its body without secrets; no headers but the user agent). */
export function eventRequest(request: FastifyRequest): EventRequest;
export function eventRequest(request: FastifyRequest | undefined): EventRequest | undefined;
export function eventRequest(request: FastifyRequest | undefined): EventRequest | undefined {
  if (!request) return undefined;
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
  return {
    ip: request.ip,
    method: request.method,
    hostname: request.hostname,
    ...(request.headers['user-agent'] !== undefined && { user_agent: request.headers['user-agent'] }),
    body: withoutSecrets(body),
  };
}

/** The actions' outcome for a signup about to create `user` (no user_id yet in the event); undefined when none is bound. */
export async function runPreUserRegistration(
  ctx: RegistrationActionsContext,
  signup: { tenantId: string; connection: DatabaseConnection; user: UserRow; clientId: string; request?: FastifyRequest },
): Promise<(PreUserRegistrationOutcome & { failure?: string }) | undefined> {
  const actions = await ctx.actions.bound(signup.tenantId, 'pre-user-registration');
  if (actions.length === 0) return undefined;
  const { user_id: _notYet, identities: _none, multifactor: _noFactors, ...user } = eventUser(signup.user, { name: signup.connection.name, strategy: DATABASE_STRATEGY });
  const request = eventRequest(signup.request) ?? { ip: '', method: 'POST' };
  const { outcome, failure } = await ctx.actions.run(
    signup.tenantId,
    preUserRegistration,
    { tenant: { id: signup.tenantId }, user, connection: { id: signup.connection.id, name: signup.connection.name, strategy: DATABASE_STRATEGY }, request },
    { actions },
  );
  return failure ? { ...outcome, failure: failure.message } : outcome;
}

/** Runs post-user-registration for the new user, after the fact. */
export function runPostUserRegistration(ctx: RegistrationActionsContext, signup: { tenantId: string; connection: DatabaseConnection; user: UserRow; request?: FastifyRequest }): void {
  const request = eventRequest(signup.request);
  void ctx.actions.bound(signup.tenantId, 'post-user-registration').then((actions) => {
    if (actions.length === 0) return;
    ctx.actions.runDetached(signup.tenantId, postUserRegistration, {
      tenant: { id: signup.tenantId },
      user: eventUser(signup.user, { name: signup.connection.name, strategy: DATABASE_STRATEGY }),
      connection: { id: signup.connection.id, name: signup.connection.name, strategy: DATABASE_STRATEGY },
      ...(request && { request }),
    });
  });
}
