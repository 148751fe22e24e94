/**
 * What the screens' render settings read of a transaction (src/domain/branding/rendering.ts
 * RenderingFacts): its client, organization, custom domain, user and
 * authorization parameters, each member copied by name, so that nothing
 * else of them (a client secret, a session) can reach the page's context.
 * Gathered only when a page of the transaction is a screen in advanced mode
 * (pages/html.ts sendPage).
 */
import type { RenderingFacts } from '../../domain/branding/rendering.js';
import type { CustomDomainStore } from '../../domain/custom-domains/store.js';
import type { OrganizationStore } from '../../domain/organizations/store.js';
import type { Interaction } from './step.js';

export interface RenderingFactsContext {
  readonly stores: { readonly organizations: Pick<OrganizationStore, 'get' | 'getByName'>; readonly customDomains: Pick<CustomDomainStore, 'findReady'> };
}

const strings = (value: unknown): Record<string, string> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
const object = (value: unknown): Record<string, unknown> => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

export async function renderingFacts(ctx: RenderingFactsContext, interaction: Interaction): Promise<RenderingFacts> {
  const { tenant, client, request } = interaction;
  const config = client.row.config as Record<string, unknown>;
  const wanted = request.organization;
  const organization = wanted === undefined ? undefined : ((await ctx.stores.organizations.get(tenant.id, wanted)) ?? (await ctx.stores.organizations.getByName(tenant.id, wanted)));
  const domain = tenant.customDomain === undefined ? undefined : await ctx.stores.customDomains.findReady(tenant.customDomain);
  const user = interaction.authenticated?.user;
  const settings = tenant.settings as unknown as Record<string, unknown>;
  return {
    tenant: {
      name: tenant.name,
      ...(typeof settings.friendly_name === 'string' && { friendly_name: settings.friendly_name }),
      ...(Array.isArray(settings.enabled_locales) && { enabled_locales: settings.enabled_locales.filter((l): l is string => typeof l === 'string') }),
    },
    client: {
      id: client.row.client_id,
      name: client.row.name,
      ...(typeof config.logo_uri === 'string' && { logo_uri: config.logo_uri }),
      ...(client.row.description !== '' && { description: client.row.description }),
      metadata: strings(config.client_metadata),
    },
    ...(organization &&
      organization.tenant_id === tenant.id && {
        organization: {
          id: organization.id,
          name: organization.name,
          ...(organization.display_name !== null && { display_name: organization.display_name }),
          ...(organization.branding !== null && { branding: organization.branding }),
          metadata: strings(organization.metadata),
        },
      }),
    ...(domain && domain.tenant_id === tenant.id && { domain: { id: domain.id, domain: domain.domain, metadata: strings(domain.domain_metadata) } }),
    ...(user && { user: { user_metadata: object(user.user_metadata), app_metadata: object(user.app_metadata) } }),
    authorizationParams: {
      ...(request.login_hint !== undefined && { login_hint: request.login_hint }),
      ...(request.screen_hint !== undefined && { screen_hint: request.screen_hint }),
      ...(request.ui_locales !== undefined && { ui_locales: request.ui_locales }),
    },
    ...(interaction.transactionId !== undefined && { state: interaction.transactionId }),
  };
}
