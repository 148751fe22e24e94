/**
 * post-login at the end of an interactive login (/authorize and the flows
 * that ride its steps): once every interaction step is done, before the code
 * or tokens are issued. `api.multifactor.enable` (any provider but `none`)
 * for a session without a second factor sends the login through the MFA
 * step first (the request then asks for MFA as `acr_values` does), after
 * which the actions run again and see the second factor done.
 * `api.redirect.sendUserTo` suspends the login (./continue.ts); at
 * `/continue` the redirecting action's `onContinuePostLogin` runs, then the
 * actions after it.
 */
import type { FastifyRequest } from 'fastify';
import type { PostLoginOutcome } from '../../domain/actions-runtime/triggers/post-login.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { RiskAssessmentStore } from '../../domain/risk-assessments/store.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { Interaction } from '../interaction/step.js';
import { runPostLogin, type PostLoginContext, type PostLoginLogin, type ResumedActions } from './post-login.js';

export interface LoginActionsContext extends PostLoginContext {
  readonly stores: PostLoginContext['stores'] & { readonly connections: Pick<ConnectionStore, 'get'>; readonly riskAssessments: Pick<RiskAssessmentStore, 'loginAssessment'> };
}

/** A login suspended by an action's redirect: the version of the action that redirected and the outcome so far. */
export interface SuspendedActions {
  versionId: string;
  outcome: PostLoginOutcome;
}

/** At `/continue`: what `event.request` and `api.redirect.validateToken` see. */
export type ContinueRequest = NonNullable<PostLoginLogin['continued']>;

/**
 * The actions' outcome, or undefined when none is bound; throws `access_denied`
 * for a deny or an action's error. `resume`: the login an action suspended,
 * going on at `/continue`.
 */
export async function runLoginActions(
  ctx: LoginActionsContext,
  http: FastifyRequest,
  interaction: Interaction,
  resume?: { suspended: SuspendedActions; request: ContinueRequest },
): Promise<PostLoginOutcome | undefined> {
  const { tenant, client, request, authenticated } = interaction;
  if (!authenticated) return undefined;
  const bound = await ctx.actions.bound(tenant.id, 'post-login');
  let resumed: ResumedActions | undefined;
  if (resume) {
    const index = bound.findIndex((action) => action.versionId === resume.suspended.versionId);
    // Unbound or redeployed while the user was away: its onContinuePostLogin cannot run, so the login cannot go on.
    if (index < 0) throw oauthErrors.accessDenied('The action that redirected the login is no longer bound to post-login');
    resumed = { index, outcome: resume.suspended.outcome };
  }
  if (bound.length === 0) return undefined;
  const connection = await ctx.stores.connections.get(tenant.id, authenticated.user.connection_id);
  const { session } = authenticated;
  const riskAssessment = await ctx.stores.riskAssessments.loginAssessment(tenant.id, session.id_hash);
  // The session's methods (its amr: `mfa` once a second factor passed), at the session's login.
  const authentication = {
    methods: (session.amr ?? '').split(' ').filter(Boolean).map((name) => ({ name, timestamp: isoAt(session.auth_time * 1000) })),
    ...(riskAssessment && { riskAssessment }),
  };
  return runPostLogin(
    ctx,
    {
      tenant,
      client,
      user: authenticated.user,
      connection: { id: authenticated.user.connection_id, name: connection?.name ?? '', strategy: connection?.strategy ?? 'auth0' },
      request: http,
      ip: http.ip,
      protocol: request.response_type.includes('code') && request.response_type.length === 1 ? 'oidc-basic-profile' : request.response_type.includes('code') ? 'oidc-hybrid-profile' : 'oidc-implicit-profile',
      audience: request.audience,
      scope: request.scope,
      ...(request.organization !== undefined && { organization: { id: request.organization, name: request.organization } }),
      // Under prompt=none the browser cannot be sent away: a redirect ends the login with interaction_required.
      canRedirect: request.prompt !== 'none',
      transaction: {
        ...(request.redirect_uri !== undefined && { redirect_uri: request.redirect_uri }),
        ...(request.state !== undefined && { state: request.state }),
        ...(request.prompt !== undefined && { prompt: request.prompt }),
        response_type: request.response_type.join(' '),
        response_mode: request.response_mode,
        ...(request.acr_values !== undefined && { acr_values: request.acr_values }),
        ...(request.ui_locales !== undefined && { ui_locales: request.ui_locales }),
        ...(request.login_hint !== undefined && { login_hint: request.login_hint }),
      },
      ...(resume && { continued: resume.request }),
      authentication,
    },
    bound,
    resumed,
  );
}

/** Whether the actions ask for a second factor that this login's session has not given. */
export function actionsWantSecondFactor(outcome: PostLoginOutcome | undefined, interaction: Interaction): boolean {
  const provider = outcome?.multifactor?.provider;
  if (provider === undefined || provider === 'none') return false;
  return !(interaction.authenticated?.session.amr ?? '').split(' ').includes('mfa');
}
