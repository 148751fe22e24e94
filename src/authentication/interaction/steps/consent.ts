/**
 * The consent step: the logged-in user sees what the client asks for and
 * accepts or declines. Under `prompt=none`: `consent_required`.
 *
 * Needed for third-party clients' users (`is_first_party: false`), for
 * first-party clients' users when the request is for an API that does not
 * skip consent for them (`skip_consent_for_verifiable_first_party_clients`),
 * for scopes not yet granted to the client for that API, and for anyone
 * under `prompt=consent`. What was granted is kept (`/api/v2/grants`).
 * Accepting records the grant and completes the step; declining spends the
 * transaction and sends `access_denied` (OIDC Core §3.1.2.6), as the
 * service does.
 *
 * The service also asks first-party clients on `localhost` callbacks, which
 * it cannot verify; Gatehouse does not, so local development and CI run
 * without the extra page.
 */
import { findOrganization } from '../../../domain/organizations/login.js';
import type { RouteOptions } from 'fastify';
import { userinfoAudience } from '../../../domain/tokens/userinfo-token.js';
import { isoAt } from '../../../platform/clock.js';
import { answerErrorsTo } from '../../error-rendering.js';
import { pageErrors } from '../../errors.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { consentPage } from '../../pages/authorize.js';
import { tokenPolicy } from '../../../domain/issuance/token-policy.js';
import { sendPage } from '../../pages/html.js';
import { scopesToGrant } from '../../token/user-tokens.js';
import { pageParams } from '../../params.js';
import { completeStep, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { formRedirects, transactionView } from './login.js';

const NAME = 'consent';

/** How the consent page describes the OpenID Connect scopes. */
const OIDC_SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'your user identifier',
  profile: 'your profile: name, nickname and picture',
  email: 'your email address and whether it is verified',
  offline_access: 'access to the data above while you are not using the application',
};

/** Every scope the request would be granted, and its API (the /userinfo audience for OpenID Connect scopes alone). */
async function wantedConsent(deps: StepDeps, interaction: Interaction): Promise<{ audience: string; apiAudience?: string; scopes: string[] }> {
  const { tenant, client, request } = interaction;
  // A login to an organization is asked about the scopes its roles there give too (the organization step found it).
  const organization = request.organization === undefined ? undefined : await findOrganization(deps.ctx.stores, tenant.id, request.organization);
  const wanted = await scopesToGrant(deps.ctx, {
    tenant,
    client,
    audience: request.audience,
    scope: request.scope,
    userId: interaction.authenticated!.user.user_id,
    ...(organization && { organization: { id: organization.id, name: organization.name } }),
  });
  return { audience: wanted.audience ?? userinfoAudience(tenant), ...(wanted.audience !== undefined && { apiAudience: wanted.audience }), scopes: wanted.scopes };
}

/** First-party clients skip consent unless the request is for an API that does not skip it for them. */
async function firstPartySkips(deps: StepDeps, interaction: Interaction): Promise<boolean> {
  const audience = interaction.request.audience ?? interaction.tenant.settings.default_audience;
  if (!audience) return true;
  const api = await deps.ctx.lookups.resourceServer(interaction.tenant.id, audience);
  return api === undefined || api.row.skip_consent_for_verifiable_first_party_clients === 1;
}

async function needed(deps: StepDeps, interaction: Interaction): Promise<boolean> {
  const { client, request, authenticated } = interaction;
  if (!authenticated) return false;
  // The token policy may skip consent (the built-in admin console, the service's own application).
  if (tokenPolicy(interaction.tenant.id, client.row.client_id).consent === 'skip') return false;
  if (request.prompt === 'consent') return true;
  if (client.browser.firstParty && (await firstPartySkips(deps, interaction))) return false;
  const wanted = await wantedConsent(deps, interaction);
  const granted = await deps.ctx.stores.consentGrants.scopesFor(interaction.tenant.id, authenticated.user.user_id, client.row.client_id, wanted.audience);
  return granted === undefined || !wanted.scopes.every((s) => granted.includes(s));
}

function routes(deps: StepDeps): RouteOptions[] {
  return [
    stepRoute(deps, NAME, 'GET', '/consent', async (interaction, _request, reply) => {
      const { user } = interaction.authenticated!;
      const wanted = await wantedConsent(deps, interaction);
      const api = wanted.apiAudience === undefined ? undefined : await deps.ctx.lookups.resourceServer(interaction.tenant.id, wanted.apiAudience);
      const described = new Map<string, string>(Object.entries(OIDC_SCOPE_DESCRIPTIONS));
      if (api) for (const s of api.row.scopes) described.set(s.value, s.description ?? '');
      return sendPage(
        reply,
        200,
        consentPage({
          ...transactionView(deps, interaction),
          userName: user.email ?? user.username ?? user.user_id,
          ...(api && { apiName: api.row.name }),
          scopes: wanted.scopes.map((value) => ({ value, description: described.get(value) ?? '' })),
        }),
        formRedirects(interaction),
      );
    }),
    stepRoute(deps, NAME, 'POST', '/consent', async (interaction, request, reply) => {
      const { tenant, client } = interaction;
      if (pageParams(request, ['decision']).decision !== 'accept') {
        if (!(await deps.transactions.consume(tenant, interaction.transactionId!))) throw pageErrors.expiredTransaction();
        // The user's refusal goes back to the client, as the authorization error response (RFC 6749 §4.1.2.1).
        answerErrorsTo(request, interaction.request);
        throw oauthErrors.accessDenied('User did not authorize the request');
      }
      const wanted = await wantedConsent(deps, interaction);
      await deps.ctx.stores.consentGrants.grant(tenant.id, interaction.authenticated!.user.user_id, client.row.client_id, wanted.audience, wanted.scopes, isoAt(deps.ctx.now()));
      return completeStep(deps, reply, interaction, NAME);
    }),
  ];
}

export const consentStep: InteractionStep = {
  name: NAME,
  page: () => '/consent',
  promptNone: { error: 'consent_required', description: 'Consent required' },
  needed,
  routes,
};
