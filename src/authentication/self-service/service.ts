/**
 * The setup a self-service SSO ticket allows (the ticket page's rules): the
 * ticket must be this tenant's, unused, unrevoked and unexpired; the
 * customer's identity provider metadata (SAML 2.0, read by samlify) gives
 * the connection's sign-in URL and certificate; the connection is created,
 * enabled for the ticket's clients and organizations, and the ticket spent,
 * in one transaction (a second submission of the same ticket finds it spent).
 */
import type { ConnectionRow } from '../../domain/connections/model.js';
import { newConnectionId } from '../../domain/connections/model.js';
import { connectionStrategy } from '../../domain/connections/strategies/index.js';
import type { SelfServiceProfileRow, SsoTicketRow } from '../../domain/self-service/rows.js';
import { secretHash } from '../../domain/secrets.js';
import type { Stores, UnitOfWork } from '../../domain/stores.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { randomString } from '../../platform/crypto/ids.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { samlify } from '../../platform/xml/samlify.js';
import { toPem } from '../../platform/crypto/certificates.js';

/** The largest metadata document taken. */
export const MAX_METADATA_BYTES = 256 * 1024;
const MAX_TICKET_LENGTH = 128;

export interface SelfServiceSetupContext {
  readonly now: () => number;
  readonly stores: Pick<Stores, 'selfService'>;
  readonly unitOfWork: UnitOfWork<Pick<Stores, 'selfService' | 'connections' | 'organizationConnections'>>;
}

export type TicketState = { usable: true; ticket: SsoTicketRow; profile: SelfServiceProfileRow } | { usable: false };

export type SetupOutcome =
  | { kind: 'created'; connection: ConnectionRow }
  | { kind: 'invalid_ticket' }
  | { kind: 'bad_metadata'; message: string }
  | { kind: 'name_taken' };

interface IdpSettings {
  signInEndpoint: string;
  signingCert: string;
}

export class SelfServiceSetup {
  constructor(private readonly ctx: SelfServiceSetupContext) {}

  async ticket(tenant: Tenant, ticket: string | undefined): Promise<TicketState> {
    if (typeof ticket !== 'string' || ticket === '' || ticket.length > MAX_TICKET_LENGTH) return { usable: false };
    const row = await this.ctx.stores.selfService.getTicket(tenant.id, secretHash(ticket));
    if (!row || row.used_at !== null || row.revoked_at !== null || Date.parse(row.expires_at) <= this.ctx.now()) return { usable: false };
    const profile = await this.ctx.stores.selfService.getProfile(tenant.id, row.profile_id);
    return profile ? { usable: true, ticket: row, profile } : { usable: false };
  }

  /** The IdP's SSO URL and signing certificate from its metadata, or what is wrong with it. */
  private async idp(metadata: string): Promise<IdpSettings | { problem: string }> {
    if (Buffer.byteLength(metadata) > MAX_METADATA_BYTES) return { problem: `The metadata is larger than ${MAX_METADATA_BYTES / 1024} KiB.` };
    if (!/<(\w+:)?EntityDescriptor[\s>]/.test(metadata)) return { problem: 'This is not SAML 2.0 metadata (no EntityDescriptor).' };
    try {
      const entity = samlify().IdentityProvider({ metadata }).entityMeta;
      const location = [entity.getSingleSignOnService('redirect'), entity.getSingleSignOnService('post')].find((value) => typeof value === 'string' && value !== '') as string | undefined;
      const certificate = entity.getX509Certificate('signing');
      const first = Array.isArray(certificate) ? certificate[0] : certificate;
      if (!location) return { problem: 'The metadata names no single sign-on service.' };
      if (typeof first !== 'string' || first === '') return { problem: 'The metadata has no signing certificate.' };
      return { signInEndpoint: location, signingCert: toPem(Buffer.from(first.replace(/\s+/g, ''), 'base64'), 'CERTIFICATE') };
    } catch {
      return { problem: 'The metadata cannot be read.' };
    }
  }

  async setUp(tenant: Tenant, ticket: string | undefined, metadata: string): Promise<SetupOutcome> {
    const state = await this.ticket(tenant, ticket);
    if (!state.usable) return { kind: 'invalid_ticket' };
    const idp = await this.idp(metadata);
    if ('problem' in idp) return { kind: 'bad_metadata', message: idp.problem };
    const config = state.ticket.config;
    const requested = config.connection_config;
    // The AuthnRequests are signed (with the tenant's key, published in the connection's SP metadata) whether or not the IdP asks.
    const options = { signInEndpoint: idp.signInEndpoint, signingCert: idp.signingCert, signSAMLRequest: true };
    const problem = connectionStrategy('samlp')?.optionsProblem?.(options);
    if (problem) return { kind: 'bad_metadata', message: `The identity provider's ${problem.property.replace(/^options\./, '')} ${problem.message}.` };
    const now = isoAt(this.ctx.now());
    const connection: ConnectionRow = {
      tenant_id: tenant.id,
      id: newConnectionId(),
      name: requested?.name ?? `sso-${randomString(12, 'abcdefghijkmnpqrstuvwxyz23456789')}`,
      display_name: requested?.display_name ?? state.profile.name,
      strategy: 'samlp',
      options,
      is_domain_connection: requested?.is_domain_connection ? 1 : 0,
      show_as_button: requested?.show_as_button ? 1 : 0,
      realms: [],
      metadata: requested?.metadata ?? {},
      created_at: now,
      updated_at: now,
    };
    connection.realms = [connection.name];
    try {
      const spent = await this.ctx.unitOfWork.transaction(async (stores) => {
        if (!(await stores.selfService.useTicket(tenant.id, state.ticket.id_hash, now, connection.id))) return false;
        await stores.connections.insert(connection, config.enabled_clients ?? []);
        for (const organization of config.enabled_organizations ?? []) {
          await stores.organizationConnections.enable({
            tenant_id: tenant.id,
            organization_id: organization.organization_id,
            connection_id: connection.id,
            assign_membership_on_login: organization.assign_membership_on_login ? 1 : 0,
            show_as_button: organization.show_as_button === false ? 0 : 1,
            is_signup_enabled: 0,
            created_at: now,
          });
        }
        return true;
      });
      return spent ? { kind: 'created', connection } : { kind: 'invalid_ticket' };
    } catch (error) {
      if (isUniqueViolation(error)) return { kind: 'name_taken' };
      throw error;
    }
  }
}
