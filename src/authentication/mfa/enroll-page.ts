/**
 * The page of an MFA enrollment ticket (POST /api/v2/guardian/enrollments/
 * ticket's `ticket_url`): GET /guardian/enroll?ticket= shows a new
 * authenticator-app enrolment (QR code and secret), POST checks the first
 * code (CSRF token bound to the ticket), confirms the enrolment, spends the
 * ticket and shows the recovery code once when that factor is on. An
 * invalid, expired or spent ticket gets the "link not valid" page; wrong
 * codes count towards the user's block like any other.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { openEnrollmentTicket, spendEnrollmentTicket, type EnrollmentTicket, type EnrollmentTicketContext } from '../../domain/mfa/enrollment-ticket.js';
import { firstRecoveryCode, startTotpEnrolment, verifyTotp, type MfaContext } from '../../domain/mfa/service.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import { PageError, pageErrors } from '../errors.js';
import type { FormError } from '../pages/authorize.js';
import { Html, sendPage, type PageDocument } from '../pages/html.js';
import { invalidEnrollmentTicketPage, ticketEnrolledPage, ticketEnrolPage } from '../pages/mfa.js';
import { pageParams } from '../params.js';
import type { UserStore } from '../../domain/users/store.js';

const MAX_TICKET = 2048;

/** What the enrolment ticket's pages touch. */
export interface EnrollmentPageContext extends MfaContext, EnrollmentTicketContext {
  formTokens(purpose: string): FormTokens;
  readonly stores: MfaContext['stores'] & EnrollmentTicketContext['stores'] & { readonly users: UserStore };
}

export function enrollmentTicketPages(ctx: EnrollmentPageContext): RouteOptions[] {
  let tokens: FormTokens | undefined;
  const csrf = (tenant: Tenant, ticket: string) => (tokens ??= ctx.formTokens('mfa_enrollment_ticket')).token(tenant.id, secretHash(ticket));

  const load = async (request: FastifyRequest, ticket: string | undefined): Promise<EnrollmentTicket> => {
    const claims = ticket && ticket.length <= MAX_TICKET ? await openEnrollmentTicket(ctx, request.tenant, ticket) : undefined;
    if (!claims || !isActive(await ctx.stores.users.get(request.tenant.id, claims.sub))) throw new PageError(400, invalidEnrollmentTicketPage());
    return claims;
  };

  const enrolPage = async (tenant: Tenant, claims: EnrollmentTicket, ticket: string, error?: FormError): Promise<PageDocument> => {
    const user = (await ctx.stores.users.get(tenant.id, claims.sub))!;
    const { secret, barcodeUri } = await startTotpEnrolment(ctx, tenant, user);
    const qrSvg = new Html(await (await import('qrcode')).toString(barcodeUri, { type: 'svg', margin: 1, width: 200 }));
    return ticketEnrolPage({ tenantName: tenant.name, ticket, csrf: csrf(tenant, ticket), qrSvg, secret, ...(error && { error }) });
  };

  return [
    {
      method: 'GET',
      url: '/guardian/enroll',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { ticket } = pageParams(request, ['ticket']);
        const claims = await load(request, ticket);
        return sendPage(reply, 200, await enrolPage(request.tenant, claims, ticket!));
      },
    },
    {
      method: 'POST',
      url: '/guardian/enroll',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { tenant } = request;
        const { ticket, csrf_token: given, code } = pageParams(request, ['ticket', 'csrf_token', 'code']);
        const claims = await load(request, ticket);
        if (!(tokens ??= ctx.formTokens('mfa_enrollment_ticket')).matches(given, tenant.id, secretHash(ticket!))) throw pageErrors.refusedForm();
        const verified = await verifyTotp(ctx, tenant.id, claims.sub, code ?? '');
        if (verified.outcome !== 'ok') {
          const message = verified.outcome === 'blocked' ? 'Too many wrong codes. Wait a few minutes before trying again.' : 'That code is not right. Scan the new code and try again.';
          throw new PageError(verified.outcome === 'blocked' ? 429 : 400, await enrolPage(tenant, claims, ticket!, { field: 'code', message }));
        }
        if (!(await spendEnrollmentTicket(ctx, tenant, claims))) throw new PageError(400, invalidEnrollmentTicketPage());
        return sendPage(reply, 200, ticketEnrolledPage(await firstRecoveryCode(ctx, tenant.id, claims.sub)));
      },
    },
  ];
}
