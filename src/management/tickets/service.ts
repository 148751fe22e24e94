/**
 * Tickets of the Management API: a link to the hosted reset-password or
 * verify-email page for a user, returned rather than mailed
 * (src/domain/tickets/user-mail.ts makes and stores it, hashed).
 */
import type { Static } from '@sinclair/typebox';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { UserMail, type UserMailContext } from '../../domain/tickets/user-mail.js';
import { managementErrors } from '../../platform/http/errors.js';
import { DEFAULT_TICKET_TTL, type EmailVerificationTicketBody, type PasswordChangeTicketBody } from './schema.js';
import type { ClientStore } from '../../domain/clients/store.js';
import type { UserStore } from '../../domain/users/store.js';

const invalid = (message: string) => managementErrors.badRequest(message, 'invalid_body');
const userNotFound = () => managementErrors.notFound('The user does not exist.', 'inexistent_user');

/** What TicketService touches. */
export interface TicketServiceContext extends UserMailContext {
  readonly stores: UserMailContext['stores'] & { readonly clients: ClientStore; readonly users: UserStore };
}

export class TicketService {
  private readonly mail: UserMail;

  constructor(private readonly ctx: TicketServiceContext) {
    this.mail = new UserMail(ctx);
  }

  private async checkClient(tenant: Tenant, clientId: string | undefined): Promise<void> {
    if (clientId !== undefined && !(await this.ctx.stores.clients.get(tenant.id, clientId))) throw managementErrors.badRequest('The client does not exist', 'inexistent_client');
  }

  async passwordChange(tenant: Tenant, body: Static<typeof PasswordChangeTicketBody>): Promise<{ ticket: string }> {
    // The document's combinations: a user by id, or by email within a connection; result_url not with an organization.
    if (body.user_id !== undefined && (body.connection_id !== undefined || body.email !== undefined)) throw invalid('user_id cannot be used together with connection_id or email.');
    if (body.user_id === undefined && (body.connection_id === undefined || body.email === undefined)) throw invalid('Either user_id, or connection_id and email, must be given.');
    if (body.result_url !== undefined && body.organization_id !== undefined) throw invalid('result_url cannot be used together with organization_id.');
    await this.checkClient(tenant, body.client_id);
    const user =
      body.user_id !== undefined
        ? await this.ctx.stores.users.get(tenant.id, body.user_id)
        : await this.ctx.stores.users.findByEmail(tenant.id, body.connection_id!, body.email!.toLowerCase());
    if (!user) throw userNotFound();
    const ticket = await this.mail.ticketUrl(tenant, user.user_id, 'password_reset', {
      ttlSeconds: body.ttl_sec || DEFAULT_TICKET_TTL,
      resultUrl: body.result_url,
      markEmailVerified: body.mark_email_as_verified === true,
      includeEmail: body.includeEmailInRedirect,
    });
    return { ticket };
  }

  async emailVerification(tenant: Tenant, body: Static<typeof EmailVerificationTicketBody>): Promise<{ ticket: string }> {
    if (body.result_url !== undefined && (body.client_id !== undefined || body.organization_id !== undefined)) {
      throw invalid('result_url cannot be used together with client_id or organization_id.');
    }
    await this.checkClient(tenant, body.client_id);
    const user = await this.ctx.stores.users.get(tenant.id, body.user_id);
    if (!user) throw userNotFound();
    const ticket = await this.mail.ticketUrl(tenant, user.user_id, 'email_verification', {
      ttlSeconds: body.ttl_sec || DEFAULT_TICKET_TTL,
      resultUrl: body.result_url,
      includeEmail: body.includeEmailInRedirect,
    });
    return { ticket };
  }
}
