/**
 * Runs the post-login trigger for a login that every interaction step (or a
 * password grant) has decided, before the code or tokens are issued
 * (actions-wire-notes §2.3): builds the event from the login, runs the bound
 * actions, writes the metadata they set once at the end, and answers the
 * token changes; a deny or an error of an action is `access_denied` with its
 * message (the service: an uncaught error behaves as a deny).
 */
import type { FastifyRequest } from 'fastify';
import type { ActionsRuntime, BoundActionLike } from '../../domain/actions-runtime/runtime.js';
import { eventUser, withoutSecrets } from '../../domain/actions-runtime/triggers/event-parts.js';
import { postLogin, type PostLoginInput, type PostLoginOutcome } from '../../domain/actions-runtime/triggers/post-login.js';
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { UserRoleStore } from '../../domain/rbac/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserStore } from '../../domain/users/store.js';
import type { UserRow } from '../../domain/users/rows.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';

export interface PostLoginContext {
  readonly actions: ActionsRuntime;
  readonly lookups: Pick<IssuanceLookups, 'resourceServer'>;
  readonly stores: { readonly users: Pick<UserStore, 'update'>; readonly rbac: Pick<UserRoleStore, 'listEffectiveRoles'> };
  readonly now: () => number;
}

export interface PostLoginLogin {
  tenant: Tenant;
  client: IssuanceClient;
  user: UserRow;
  connection: { id: string; name: string; strategy: string };
  request: FastifyRequest;
  /** The end user's address (as the endpoint determined it). */
  ip: string;
  /** `transaction.protocol` (actions-wire-notes §2.3). */
  protocol: string;
  audience: string | undefined;
  scope: string | undefined;
  organization?: { id: string; name: string };
  canRedirect: boolean;
  /** Extra members of `event.transaction` (the authorization request's). */
  transaction?: Record<string, unknown>;
  /** At `/continue`: its state and parameters (`api.redirect.validateToken`), and the query and body `event.request` shows. */
  continued?: { state: string; params: Record<string, unknown>; query: Record<string, unknown>; body: Record<string, unknown> };
  /** `event.authentication` (interactive logins: the session's methods and its login's risk assessment). */
  authentication?: PostLoginInput['authentication'];
}

/** A login a post-login action suspended (`api.redirect.sendUserTo`), resumed at `/continue`: the action's place in the bindings and the outcome so far. */
export interface ResumedActions {
  index: number;
  outcome: PostLoginOutcome;
}

/** The most roles listed in `event.authorization.roles`. */
const ROLES_MAX = 1000;

/** The post-login actions' outcome for this login, or undefined when none is bound; throws `access_denied` for a deny or a failure. */
export async function runPostLogin(ctx: PostLoginContext, login: PostLoginLogin, bound?: BoundActionLike[], resumed?: ResumedActions): Promise<PostLoginOutcome | undefined> {
  const actions = bound ?? (await ctx.actions.bound(login.tenant.id, 'post-login'));
  if (actions.length === 0) return undefined;
  const input = await postLoginInput(ctx, login);
  let run;
  if (resumed) {
    // The action that redirected goes on in onContinuePostLogin; the actions before it do not run again, those after it run as usual.
    run = await ctx.actions.run(login.tenant.id, postLogin, input, { actions: actions.slice(resumed.index, resumed.index + 1), handler: 'onContinuePostLogin', outcome: resumed.outcome });
    if (!run.failure && !postLogin.stops!(run.outcome)) run = await ctx.actions.run(login.tenant.id, postLogin, input, { actions: actions.slice(resumed.index + 1), outcome: run.outcome });
  } else {
    run = await ctx.actions.run(login.tenant.id, postLogin, input, { actions });
  }
  const { outcome, failure } = run;
  // Metadata is written even when the login is then refused (the service: a deny does not undo it).
  await writeMetadata(ctx, login, outcome);
  if (failure) throw oauthErrors.accessDenied(failure.message);
  if (outcome.deny !== undefined) throw oauthErrors.accessDenied(outcome.deny);
  return outcome;
}

async function postLoginInput(ctx: PostLoginContext, login: PostLoginLogin): Promise<PostLoginInput> {
  const { tenant, client, user, request } = login;
  const audience = login.audience ?? tenant.settings.default_audience ?? undefined;
  const api = audience ? await ctx.lookups.resourceServer(tenant.id, audience) : undefined;
  const roles = await ctx.stores.rbac.listEffectiveRoles(tenant.id, user.user_id, { limit: ROLES_MAX });
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
  return {
    tenant: { id: tenant.id },
    user: eventUser(user, login.connection),
    client: { client_id: client.row.client_id, name: client.row.name, metadata: (client.row.config.client_metadata as Record<string, unknown> | undefined) ?? {} },
    connection: login.connection,
    request: {
      ip: login.ip,
      method: request.method,
      hostname: request.hostname,
      ...(request.headers['user-agent'] !== undefined && { user_agent: request.headers['user-agent'] }),
      ...(request.headers['accept-language'] !== undefined && { language: request.headers['accept-language'].split(',')[0] }),
      query: withoutSecrets(login.continued?.query ?? (request.query as Record<string, unknown>)),
      body: withoutSecrets(login.continued?.body ?? body),
    },
    transaction: {
      ...login.transaction,
      protocol: login.protocol,
      requested_scopes: (login.scope ?? '').split(' ').filter(Boolean),
      metadata: {},
    },
    ...(login.organization && { organization: { id: login.organization.id, name: login.organization.name, metadata: {} } }),
    roles: roles.map((entry) => entry.role.name),
    loginsCount: user.logins_count,
    ...(api && { resourceServer: { identifier: api.row.identifier, system: api.row.is_system === 1 } }),
    canRedirect: login.canRedirect,
    ...(login.continued && { continued: { state: login.continued.state, params: login.continued.params } }),
    ...(login.authentication && { authentication: login.authentication }),
  };
}

/** Metadata the actions set, merged into the user's once (`null` deletes a key). */
async function writeMetadata(ctx: PostLoginContext, login: PostLoginLogin, outcome: PostLoginOutcome): Promise<void> {
  const merge = (current: Record<string, unknown>, changes: Record<string, unknown>) => {
    const next = { ...current };
    for (const [key, value] of Object.entries(changes)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    return next;
  };
  const app = Object.keys(outcome.appMetadata).length > 0;
  const own = Object.keys(outcome.userMetadata).length > 0;
  if (!app && !own) return;
  const changes = {
    ...(app && { app_metadata: merge(login.user.app_metadata, outcome.appMetadata) as UserRow['app_metadata'] }),
    ...(own && { user_metadata: merge(login.user.user_metadata, outcome.userMetadata) as UserRow['user_metadata'] }),
    updated_at: isoAt(ctx.now()),
  };
  await ctx.stores.users.update(login.tenant.id, login.user.user_id, changes);
  Object.assign(login.user, changes);
}
