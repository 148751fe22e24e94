/**
 * Business rules of invitations to an organization.
 *
 * Creating one checks, in the document's words (its 400s): the client exists
 * ("The specified client_id does not exist."), allows organizations
 * (`organization_usage` allow or require: "The specified client_id does not
 * allow organizations.") and has an `initiate_login_uri` ("A default login
 * route is required to generate the invitation url. …"); the connection, when
 * given, exists and is enabled for the organization; every role exists.
 *
 * The ticket is a random secret: its SHA-256 finds the invitation at
 * /authorize, and it is sealed under the master key because the Management
 * API shows the `invitation_url` (`{initiate_login_uri}?invitation=…&
 * organization=…&organization_name=…`) again. It works once and expires after
 * `ttl_sec` (default 7 days, at most 30). The invitee is mailed the URL unless
 * `send_invitation_email` is false; delivery is not awaited, and a failure is
 * logged without the message (it carries a live link).
 */
import { sendTenantMail, type TenantMailContext } from '../../../domain/email/templates.js';
import type { OrganizationInvitationRow, OrganizationRow } from '../../../domain/rows.js';
import { newSecret, secretHash } from '../../../domain/secrets.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { newPrefixedId } from '../../../platform/crypto/ids.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { selectFields, type FieldSelection } from '../../fields.js';
import { offsetPaging, offsetWindow } from '../../lists.js';
import { DEFAULT_TTL_SEC, type CreateInvitationBody } from './schema.js';
import type { ConnectionStore } from '../../../domain/connections/store.js';
import type { IssuanceLookups } from '../../../domain/issuance/lookups.js';
import type { OrganizationConnectionStore } from '../../../domain/organizations/connections-store.js';
import { INVITATION_TICKET_SEAL, type OrganizationInvitationStore } from '../../../domain/organizations/invitations-store.js';
import type { OrganizationStore } from '../../../domain/organizations/store.js';
import type { RoleStore } from '../../../domain/roles/store.js';
import type { SecretBox } from '../../../platform/crypto/secret-box.js';

export interface Invitation {
  id: string;
  organization_id: string;
  inviter: { name: string };
  invitee: { email: string };
  invitation_url: string;
  created_at: string;
  expires_at: string;
  client_id: string;
  connection_id?: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  roles: string[];
  ticket_id: string;
}

/** The purpose the ticket is sealed under. */

const organizationMissing = () => managementErrors.notFound('No organization found by that id.', 'inexistent_organization');
const invitationMissing = () => managementErrors.notFound('The invitation does not exist.');

export function invitationUrl(initiateLoginUri: string, ticket: string, organization: Pick<OrganizationRow, 'id' | 'name'>): string {
  const url = new URL(initiateLoginUri);
  url.searchParams.set('invitation', ticket);
  url.searchParams.set('organization', organization.id);
  url.searchParams.set('organization_name', organization.name);
  return url.toString();
}

/** What OrganizationInvitationService touches. */
export interface OrganizationInvitationServiceContext extends TenantMailContext {
  readonly box: SecretBox;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly stores: TenantMailContext['stores'] & {
    readonly connections: ConnectionStore;
    readonly organizationConnections: OrganizationConnectionStore;
    readonly organizationInvitations: OrganizationInvitationStore;
    readonly organizations: OrganizationStore;
    readonly roles: RoleStore;
  };
}

export class OrganizationInvitationService {
  constructor(private readonly ctx: OrganizationInvitationServiceContext) {}

  private async organization(tenant: Tenant, id: string): Promise<OrganizationRow> {
    const row = await this.ctx.stores.organizations.get(tenant.id, id);
    if (!row) throw organizationMissing();
    return row;
  }

  private async toApi(tenant: Tenant, row: OrganizationInvitationRow, organization: OrganizationRow): Promise<Invitation> {
    const ticket = this.ctx.box.openString(row.ticket_enc, INVITATION_TICKET_SEAL);
    const client = await this.ctx.lookups.client(tenant.id, row.client_id);
    const loginUri = (client?.row.config as { initiate_login_uri?: string } | undefined)?.initiate_login_uri;
    return {
      id: row.id,
      organization_id: row.organization_id,
      inviter: { name: row.inviter_name },
      invitee: { email: row.invitee_email },
      // A client deleted (or its login route removed) since: the link is left empty rather than invented.
      invitation_url: loginUri ? invitationUrl(loginUri, ticket, organization) : '',
      created_at: row.created_at,
      expires_at: row.expires_at,
      client_id: row.client_id,
      ...(row.connection_id !== null && { connection_id: row.connection_id }),
      app_metadata: row.app_metadata,
      user_metadata: row.user_metadata,
      roles: row.roles,
      ticket_id: ticket,
    };
  }

  async create(tenant: Tenant, organizationId: string, body: CreateInvitationBody): Promise<Invitation> {
    const organization = await this.organization(tenant, organizationId);
    const client = await this.ctx.lookups.client(tenant.id, body.client_id);
    if (!client) throw managementErrors.badRequest('The specified client_id does not exist.');
    const config = client.row.config as { organization_usage?: string; initiate_login_uri?: string };
    if ((config.organization_usage ?? 'deny') === 'deny') throw managementErrors.badRequest('The specified client_id does not allow organizations.');
    if (!config.initiate_login_uri) {
      throw managementErrors.badRequest(
        'A default login route is required to generate the invitation url. For more information, see https://auth0.com/docs/universal-login/configure-default-login-routes',
      );
    }
    if (body.connection_id !== undefined) {
      if (!(await this.ctx.stores.connections.get(tenant.id, body.connection_id))) throw managementErrors.badRequest('The specified connection does not exist.');
      if (!(await this.ctx.stores.organizationConnections.get(tenant.id, organizationId, body.connection_id))) {
        throw managementErrors.badRequest(`The specified connection (${body.connection_id}) is not enabled for the organization`);
      }
    }
    const roles = [...new Set(body.roles ?? [])];
    const missing: string[] = [];
    for (const id of roles) if (!(await this.ctx.stores.roles.get(tenant.id, id))) missing.push(id);
    if (missing.length) throw managementErrors.badRequest(`One or more of the specified roles do not exist: ${missing.join(', ')}`);

    const ticket = newSecret();
    const now = this.ctx.now();
    const row: OrganizationInvitationRow = {
      tenant_id: tenant.id,
      id: newPrefixedId('uinv'),
      organization_id: organizationId,
      ticket_hash: secretHash(ticket),
      ticket_enc: this.ctx.box.seal(ticket, INVITATION_TICKET_SEAL, tenant.id),
      inviter_name: body.inviter.name,
      invitee_email: body.invitee.email,
      client_id: body.client_id,
      connection_id: body.connection_id ?? null,
      app_metadata: body.app_metadata ?? {},
      user_metadata: body.user_metadata ?? {},
      roles,
      created_at: isoAt(now),
      expires_at: isoAt(now + (body.ttl_sec || DEFAULT_TTL_SEC) * 1000),
      used_at: null,
    };
    await this.ctx.stores.organizationInvitations.insert(row);
    const invitation = await this.toApi(tenant, row, organization);
    if (body.send_invitation_email !== false) await this.mail(tenant, organization, invitation, client.row);
    return invitation;
  }

  /** The invitation mail (the tenant's `user_invitation` template when it has one). */
  private mail(tenant: Tenant, organization: OrganizationRow, invitation: Invitation, client: { name: string; client_id: string }): Promise<void> {
    const orgName = organization.display_name ?? organization.name;
    return sendTenantMail(
      this.ctx,
      tenant,
      'user_invitation',
      invitation.invitee.email,
      {
        subject: `You've been invited to join ${orgName}`,
        text:
          `${invitation.inviter.name} has invited you to join ${orgName} on ${client.name}.\n\n` +
          `To accept the invitation, open this link:\n\n${invitation.invitation_url}\n\n` +
          `The invitation works once and expires at ${invitation.expires_at}. If you were not expecting it, ignore this message.\n`,
      },
      {
        url: invitation.invitation_url,
        inviter: { name: invitation.inviter.name },
        organization: { id: organization.id, name: organization.name, display_name: organization.display_name ?? organization.name, metadata: organization.metadata },
        application: { name: client.name, clientID: client.client_id },
        user: { email: invitation.invitee.email },
      },
    );
  }

  async get(tenant: Tenant, organizationId: string, id: string, selection: FieldSelection): Promise<Partial<Invitation>> {
    const organization = await this.organization(tenant, organizationId);
    const row = await this.ctx.stores.organizationInvitations.get(tenant.id, organizationId, id);
    if (!row) throw invitationMissing();
    return selectFields(await this.toApi(tenant, row, organization), selection);
  }

  /**
   * Offset pages by creation time, newest first unless `sort=created_at:1`;
   * include_totals gives `{invitations, start, limit}` without `total`, as the
   * document says the service does ("We do not yet support returning the
   * total invitations count").
   */
  async list(
    tenant: Tenant,
    organizationId: string,
    query: { page?: number; per_page?: number; include_totals?: boolean; sort?: string },
    selection: FieldSelection,
  ): Promise<Partial<Invitation>[] | { invitations: Partial<Invitation>[]; start: number; limit: number }> {
    const organization = await this.organization(tenant, organizationId);
    const page = offsetPaging(query);
    const { rows } = await this.ctx.stores.organizationInvitations.list(tenant.id, organizationId, { ...offsetWindow(page), withTotal: false }, query.sort !== 'created_at:1');
    const invitations: Partial<Invitation>[] = [];
    for (const row of rows) invitations.push(selectFields(await this.toApi(tenant, row, organization), selection));
    return page.includeTotals ? { invitations, start: page.page * page.perPage, limit: page.perPage } : invitations;
  }

  async delete(tenant: Tenant, organizationId: string, id: string): Promise<void> {
    await this.organization(tenant, organizationId);
    if (!(await this.ctx.stores.organizationInvitations.delete(tenant.id, organizationId, id))) throw invitationMissing();
  }
}
