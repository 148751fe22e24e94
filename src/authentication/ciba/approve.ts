/**
 * The page of the link a CIBA request mails the user (OpenID CIBA Core 1.0
 * §7.1: the authentication device): `GET /ciba/approve?ticket=` shows the
 * request with its binding message; `POST /ciba/approve` records the user's
 * decision, once, while the request is pending and unexpired. The ticket is
 * the proof: a random secret sent only to the user's mailbox, single use (the
 * decision spends the request), stored as its hash; the form's CSRF token is
 * bound to it. Gatehouse's reading of the service's email channel (README).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { Stores } from '../../domain/stores.js';
import type { BackchannelAuthRequestRow } from '../../domain/rows.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import { pageErrors } from '../errors.js';
import { cibaApprovalPage, cibaDonePage } from '../pages/ciba.js';
import { sendPage } from '../pages/html.js';
import { pageParams } from '../params.js';

/** What the approval page touches: its CSRF tokens, the clock, the client's name, the back-channel requests it decides. */
export interface CibaApprovalContext {
  readonly now: () => number;
  formTokens(purpose: string): FormTokens;
  readonly lookups: Pick<IssuanceLookups, 'client'>;
  readonly stores: Pick<Stores, 'backchannelAuthRequests'>;
}

export function cibaApprovalRoutes(ctx: CibaApprovalContext): RouteOptions[] {
  let tokens: FormTokens | undefined;
  const csrf = () => (tokens ??= ctx.formTokens('gatehouse ciba approval'));

  async function pending(tenant: Tenant, ticket: string | undefined): Promise<BackchannelAuthRequestRow | undefined> {
    if (!ticket || ticket.length > 100) return undefined;
    const row = await ctx.stores.backchannelAuthRequests.findByTicket(tenant.id, secretHash(ticket));
    return row && row.status === 'pending' && row.expires_at > isoAt(ctx.now()) ? row : undefined;
  }

  return [
    {
      method: 'GET',
      url: '/ciba/approve',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant } = request;
        const { ticket } = pageParams(request, ['ticket']);
        const row = await pending(tenant, ticket);
        if (!row) return sendPage(reply, 400, cibaDonePage('invalid'));
        const client = await ctx.lookups.client(tenant.id, row.client_id);
        return sendPage(
          reply,
          200,
          cibaApprovalPage({
            ticket: ticket!,
            csrf: csrf().token(tenant.id, row.ticket_hash),
            clientName: client?.row.name ?? row.client_id,
            bindingMessage: row.binding_message,
            scopes: row.scope.split(' '),
          }),
        );
      },
    },
    {
      method: 'POST',
      url: '/ciba/approve',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant } = request;
        const { ticket, decision, csrf_token } = pageParams(request, ['ticket', 'decision', 'csrf_token']);
        const row = await pending(tenant, ticket);
        if (!row) return sendPage(reply, 400, cibaDonePage('invalid'));
        if (!csrf().matches(csrf_token, tenant.id, row.ticket_hash)) throw pageErrors.refusedForm();
        const outcome = decision === 'approve' ? 'approved' : 'denied';
        if (!(await ctx.stores.backchannelAuthRequests.decide(tenant.id, row.id, isoAt(ctx.now()), outcome))) return sendPage(reply, 400, cibaDonePage('invalid'));
        return sendPage(reply, 200, cibaDonePage(outcome));
      },
    },
  ];
}
