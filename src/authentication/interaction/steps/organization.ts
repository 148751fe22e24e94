/**
 * The organization step (issue: organizations in login; authentication-api-
 * wire-notes §4 `organization`, `invitation`): which organization a login is
 * for, and whether the user may log in to it. It comes before login in the
 * list, and the policy asks it again after every step, so it decides both
 * before the login (what the request may ask) and after it (membership).
 *
 * The client's `organization_usage`:
 * - `deny` (the default): a request naming an organization is refused;
 * - `allow`: a request may name one; without it the login is a plain one;
 * - `require`: a request must end up with one, by its
 *   `organization_require_behavior`: `no_prompt` refuses a request without
 *   it, `pre_login_prompt` asks for the organization's name on a page before
 *   the login (or an email address whose domain is verified for one, when
 *   the client's `organization_discovery_methods` include `email`),
 *   `post_login_prompt` lists the user's organizations after it.
 *
 * `organization` names one by id or by name. Once the user is known:
 * - the user's connection must be enabled for the organization;
 * - a member goes on; a non-member becomes one when the connection has
 *   `assign_membership_on_login`, or through the request's `invitation`
 *   (single use, unexpired, for this organization, sent to the user's email
 *   address), which also gives the invited roles; anyone else is refused
 *   with `access_denied`.
 * Joining happens on the step's page (`GET /organization`, reached only
 * through the policy's redirect with the transaction bound to this browser),
 * which then completes the step. The chosen organization travels in the
 * request to the tokens' `org_id` (../../authorize/response.ts).
 *
 * Refusals are the authorization errors the client receives; their wording
 * is Gatehouse's where the service's is not recorded (README).
 */
import type { FastifyReply, RouteOptions } from 'fastify';
import { findOrganization } from '../../../domain/organizations/login.js';
import type { OrganizationInvitationRow, OrganizationRow } from '../../../domain/rows.js';
import { secretHash } from '../../../domain/secrets.js';
import { isoAt } from '../../../platform/clock.js';
import { answeringErrorsTo } from '../../error-rendering.js';
import { pageErrors } from '../../errors.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import { organizationChoicePage, organizationNamePage, type OrganizationPromptError } from '../../pages/organization.js';
import { sendPage } from '../../pages/html.js';
import { pageParams } from '../../params.js';
import { completeStep, runInteraction, stepRoute } from '../policy.js';
import type { Interaction, StepDeps, InteractionStep } from '../step.js';
import { transactionView } from './login.js';

const NAME = 'organization';

type Usage = 'deny' | 'allow' | 'require';
type RequireBehavior = 'no_prompt' | 'pre_login_prompt' | 'post_login_prompt';
type DiscoveryMethod = 'email' | 'organization_name';

function clientPolicy(interaction: Interaction): { usage: Usage; behavior: RequireBehavior } {
  const config = interaction.client.row.config as { organization_usage?: Usage | null; organization_require_behavior?: RequireBehavior | null };
  return { usage: config.organization_usage ?? 'deny', behavior: config.organization_require_behavior ?? 'no_prompt' };
}

/**
 * The step's refusal of the request. The endpoint renders it: the policy
 * (../policy.ts) and the step's page answer it to the client's redirect
 * target, as the authorization error response.
 */
const refusal = (error: 'invalid_request' | 'access_denied', description: string) => oauthErrors.authorizationRequest(error, description);

/** The request's invitation when still usable for this organization. */
async function usableInvitation(deps: StepDeps, interaction: Interaction, organization: OrganizationRow): Promise<OrganizationInvitationRow> {
  const ticket = interaction.request.invitation!;
  const row = ticket.length <= 100 ? await deps.ctx.stores.organizationInvitations.findByTicket(interaction.tenant.id, secretHash(ticket)) : undefined;
  if (!row || row.organization_id !== organization.id || row.used_at !== null || row.expires_at <= isoAt(deps.ctx.now())) {
    throw refusal('access_denied', 'the invitation is not valid: it was not found, has expired or was already used');
  }
  return row;
}

/** The organization the request names, or its refusal. */
async function namedOrganization(deps: StepDeps, interaction: Interaction): Promise<OrganizationRow> {
  const name = interaction.request.organization!;
  const organization = await findOrganization(deps.ctx.stores, interaction.tenant.id, name);
  if (!organization) throw refusal('invalid_request', `no organization found with the id or name ${name}`);
  return organization;
}

/** What the logged-in user needs to log in to the organization: nothing, or to join it (the step's page). */
async function membership(deps: StepDeps, interaction: Interaction, organization: OrganizationRow): Promise<'member' | 'join'> {
  const { stores } = deps.ctx;
  const { tenant } = interaction;
  const user = interaction.authenticated!.user;
  const enabled = await stores.organizationConnections.get(tenant.id, organization.id, user.connection_id);
  if (!enabled) throw refusal('access_denied', `the connection of the user is not enabled for the organization ${organization.id}`);
  if (interaction.request.invitation !== undefined) {
    await usableInvitation(deps, interaction, organization);
    return 'join';
  }
  if (await stores.organizationMembers.isMember(tenant.id, organization.id, user.user_id)) return 'member';
  if (enabled.assign_membership_on_login === 1) return 'join';
  throw refusal('access_denied', `user ${user.user_id} is not part of the ${organization.id} organization`);
}

async function needed(deps: StepDeps, interaction: Interaction): Promise<boolean> {
  const { request, authenticated } = interaction;
  const policy = clientPolicy(interaction);
  if (request.organization === undefined) {
    if (request.invitation !== undefined) throw refusal('invalid_request', 'parameter organization is required with invitation');
    if (policy.usage !== 'require') return false;
    if (policy.behavior === 'pre_login_prompt') return true;
    if (policy.behavior === 'post_login_prompt') return authenticated !== undefined;
    throw refusal('invalid_request', 'parameter organization is required for this client');
  }
  if (policy.usage === 'deny') throw refusal('invalid_request', 'parameter organization is not allowed for this client');
  const organization = await namedOrganization(deps, interaction);
  if (!authenticated) {
    if (request.invitation !== undefined) await usableInvitation(deps, interaction, organization);
    return false;
  }
  return (await membership(deps, interaction, organization)) === 'join';
}

/**
 * Makes the user a member: through the invitation (consumed once, for the
 * invitee's email address only, with its roles), or by the connection's
 * `assign_membership_on_login`.
 */
async function join(deps: StepDeps, interaction: Interaction, organization: OrganizationRow): Promise<void> {
  const { stores } = deps.ctx;
  const { tenant } = interaction;
  const user = interaction.authenticated!.user;
  const now = isoAt(deps.ctx.now());
  let roles: string[] = [];
  if (interaction.request.invitation !== undefined) {
    const invitation = await usableInvitation(deps, interaction, organization);
    if ((user.email ?? '').toLowerCase() !== invitation.invitee_email.toLowerCase()) {
      throw refusal('access_denied', 'the invitation was sent to another email address');
    }
    if (invitation.connection_id !== null && invitation.connection_id !== user.connection_id) {
      throw refusal('access_denied', 'the invitation is for another connection');
    }
    if (!(await stores.organizationInvitations.consume(tenant.id, invitation.id, now))) {
      throw refusal('access_denied', 'the invitation is not valid: it was not found, has expired or was already used');
    }
    roles = invitation.roles;
  }
  const added = await stores.organizationMembers.addMembers(tenant.id, organization.id, [user.user_id], now);
  if (added.status !== 'assigned') throw refusal('access_denied', `the organization ${organization.id} no longer exists`);
  // Roles deleted since the invitation was made are left out.
  const existing = [];
  for (const id of roles) if (await stores.roles.get(tenant.id, id)) existing.push(id);
  if (existing.length) await stores.organizationMembers.assignMemberRoles(tenant.id, organization.id, user.user_id, existing, now);
}

/**
 * The request with the organization chosen on the page, kept on the
 * transaction (with the email address it was discovered by as the login's
 * `login_hint`); then the policy goes on.
 */
async function choose(deps: StepDeps, reply: FastifyReply, interaction: Interaction, organization: OrganizationRow, email?: string): Promise<FastifyReply> {
  const request = { ...interaction.request, organization: organization.id, ...(email !== undefined && { login_hint: email }) };
  if (!(await deps.transactions.recordRequest(interaction.tenant, interaction.transactionId!, request))) throw pageErrors.expiredTransaction();
  return runInteraction(deps, reply, { ...interaction, request });
}

/**
 * How the pre-login prompt may find the organization: the client's
 * `organization_discovery_methods` (`email`, `organization_name`); without
 * them, by name only (as before the setting existed).
 */
function discoveryMethods(interaction: Interaction): DiscoveryMethod[] {
  const config = interaction.client.row.config as { organization_discovery_methods?: DiscoveryMethod[] | null };
  const methods = (config.organization_discovery_methods ?? []).filter((m) => m === 'email' || m === 'organization_name');
  return methods.length ? methods : ['organization_name'];
}

/** Longest email address the prompt looks up (RFC 5321: 64 + 1 + 255). */
const MAX_EMAIL = 320;

/**
 * The organization for what the user typed on the pre-login prompt: an email
 * address (it has an `@`) by its domain, which must be verified for one
 * organization and used for discovery, when the client allows `email`; else
 * an organization's name (or id) when it allows `organization_name`. The
 * error is the page's message; it says as little about the tenant's
 * organizations as the name lookup does.
 */
async function discover(
  deps: StepDeps,
  interaction: Interaction,
  methods: DiscoveryMethod[],
  given: string,
): Promise<{ organization: OrganizationRow; email?: string } | { error: OrganizationPromptError }> {
  const { stores } = deps.ctx;
  const tenantId = interaction.tenant.id;
  if (given.includes('@')) {
    if (!methods.includes('email')) return { error: 'email-not-accepted' };
    const at = given.lastIndexOf('@');
    const domain = given.slice(at + 1).toLowerCase();
    if (given.length > MAX_EMAIL || at === 0 || domain.length < 3) return { error: 'invalid-email' };
    const verified = await stores.organizationDiscoveryDomains.findVerified(tenantId, domain);
    const organization = verified && (await stores.organizations.get(tenantId, verified.organization_id));
    return organization ? { organization, email: given } : { error: 'no-organization-email' };
  }
  if (!methods.includes('organization_name')) return { error: 'name-not-accepted' };
  const organization = given && given.length <= 50 ? await findOrganization(stores, tenantId, given) : undefined;
  return organization ? { organization } : { error: 'no-organization' };
}

function routes(deps: StepDeps): RouteOptions[] {
  const userOrganizations = async (interaction: Interaction) =>
    (await deps.ctx.stores.organizationMembers.listUserOrganizations(interaction.tenant.id, interaction.authenticated!.user.user_id, { offset: 0, limit: 100, withTotal: false })).rows;
  return [
    stepRoute(deps, NAME, 'GET', '/organization', (interaction, request, reply) => answeringErrorsTo(request, interaction.request, async () => {
      if (interaction.request.organization !== undefined) {
        await join(deps, interaction, await namedOrganization(deps, interaction));
        return completeStep(deps, reply, interaction, NAME);
      }
      const view = transactionView(deps, interaction);
      if (!interaction.authenticated) return sendPage(reply, 200, organizationNamePage({ ...view, methods: discoveryMethods(interaction) }));
      const organizations = await userOrganizations(interaction);
      if (organizations.length === 0) {
        if (!(await deps.transactions.consume(interaction.tenant, interaction.transactionId!))) throw pageErrors.expiredTransaction();
        throw refusal('access_denied', `user ${interaction.authenticated.user.user_id} is not part of any organization`);
      }
      return sendPage(reply, 200, organizationChoicePage({ ...view, organizations: organizations.map((o) => ({ id: o.id, label: o.display_name ?? o.name })) }));
    })),
    stepRoute(deps, NAME, 'POST', '/organization', async (interaction, request, reply) => {
      const given = (pageParams(request, ['organization']).organization ?? '').trim();
      if (!interaction.authenticated) {
        const methods = discoveryMethods(interaction);
        const found = await discover(deps, interaction, methods, given);
        if ('error' in found) {
          const error = found.error;
          const view = organizationNamePage({
            ...transactionView(deps, interaction),
            methods,
            name: given,
            error: { field: 'organization', message: (ui) => ui.text('organizations', 'organization-selection', error) },
          });
          return sendPage(reply, 400, view);
        }
        return choose(deps, reply, interaction, found.organization, found.email);
      }
      // After login: one of the user's own organizations only.
      const organization = (await userOrganizations(interaction)).find((o) => o.id === given);
      if (!organization) return sendPage(reply, 400, organizationChoicePage({ ...transactionView(deps, interaction), organizations: [] }));
      return choose(deps, reply, interaction, organization);
    }),
  ];
}

export const organizationStep: InteractionStep = {
  name: NAME,
  page: () => '/organization',
  promptNone: { error: 'interaction_required', description: 'Organization selection or membership required' },
  needed,
  routes,
};
