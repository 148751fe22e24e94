/**
 * The admin console's setup page, behind the one-time link printed at first
 * start or by `gatehouse admin-link` (src/domain/console/setup.ts):
 *
 * - GET /admin/setup?ticket=…: a form (email, password, confirmation) with
 *   the connection's password policy and a CSRF token bound to the ticket;
 * - POST /admin/setup: checks the token, the ticket, the address and the
 *   policy, then in one transaction spends the ticket, creates the user in
 *   the tenant's default database connection (hashed as every new user) and
 *   gives it the administrator role, then signs that user in (a login
 *   session, as the login page starts one) and sends the browser to
 *   /admin/, whose /authorize round trip the session answers without a
 *   password prompt.
 *
 * Signing in here is safe because only this request can: the session is for
 * the user this request just created by spending the one-time ticket (not
 * for an address that already existed: that answers "already exists"), and
 * its cookie goes in the answer to the browser that posted the form, whose
 * CSRF token is bound to the ticket.
 *
 * A wrong, expired, spent or other tenant's ticket gets the refusal page
 * (400) and nothing is created; a failed CSRF check 403.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { CONSOLE_PATH, consoleConnection } from '../../domain/console/client.js';
import { ADMINISTRATOR_ROLE_NAME, ensureAdministratorRole, setupTicketUsable, spendSetupTicket, type ConsoleSetupContext } from '../../domain/console/setup.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { newDatabaseUserRow } from '../../domain/users/new-user.js';
import { isoAt } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { checkPassword, type ConnectionPasswordOptions, type PolicyResult } from '../dbconnections/password-policy.js';
import type { Sessions } from '../interaction/sessions.js';
import { pageParams } from '../params.js';
import { newPasswordFields } from '../pages/authorize.js';
import { html, page, sendPage, type PageDocument } from '../pages/html.js';
import { invalidLink, refusedLinkPage } from '../pages/links.js';
import type { Logger } from 'pino';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { UnitOfWork } from '../../domain/stores.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';

const P = 'console' as const;
const S = 'console-setup' as const;
const MAX_TICKET = 200;
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;
const PARAMS = ['ticket', 'csrf_token', 'email', 'password', 'password_confirmation'];
const CSRF_PURPOSE = 'console-setup';

export type SetupError = 'password-mismatch' | 'password-too-weak' | 'invalid-email' | 'user-exists' | 'no-db-connection';

export interface SetupFormView {
  ticket: string;
  csrf: string;
  policy: PolicyResult;
  email?: string;
  error?: SetupError;
}

export function invalidSetupLink(): PageDocument {
  return invalidLink((ui) => ui.text(P, 'console-setup-error', 'description'));
}

export function setupFormPage(view: SetupFormView): PageDocument {
  const { error } = view;
  const emailError = error === 'invalid-email' || error === 'user-exists';
  const passwordError = error === 'password-mismatch' || error === 'password-too-weak';
  return page(
    (ui) => ui.text(P, S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(P, S, 'title')}</h1>
<p>${ui.rich(P, S, 'description')}</p>
${error ? html`<p id="error" class="error" role="alert">${ui.text(P, S, error)}</p>` : ''}
<form method="post" action="${CONSOLE_PATH}setup">
<input type="hidden" name="ticket" value="${view.ticket}">
<input type="hidden" name="csrf_token" value="${view.csrf}">
<label for="email">${ui.text(P, S, 'emailLabel')}</label>
<input type="email" id="email" name="email" value="${view.email ?? ''}" autocomplete="username" required${emailError ? html` aria-invalid="true" aria-describedby="error"` : ''}>
${newPasswordFields(
  ui,
  { passwordLabel: ui.text(P, S, 'passwordLabel'), policyTitle: ui.text(P, S, 'policyTitle'), confirmationLabel: ui.text(P, S, 'reEnterPasswordLabel') },
  view.policy,
  { invalid: passwordError, showRules: error === 'password-too-weak' },
)}
<button type="submit">${ui.text(P, S, 'buttonText')}</button>
</form>`,
  );
}

function validTicket(ticket: string | undefined): ticket is string {
  return ticket !== undefined && ticket.length > 0 && ticket.length <= MAX_TICKET;
}

const passwordOptions = (connection: ConnectionRow | undefined): ConnectionPasswordOptions => (connection?.options ?? {}) as ConnectionPasswordOptions;

/** What the console's setup pages touch. */
export interface ConsoleSetupPagesContext extends ConsoleSetupContext {
  formTokens(purpose: string): FormTokens;
  readonly logger: Logger;
  readonly now: () => number;
  readonly unitOfWork: UnitOfWork;
  readonly stores: ConsoleSetupContext['stores'] & { readonly connections: ConnectionStore };
}

export function consoleSetupRoutes(ctx: ConsoleSetupPagesContext, sessions: Sessions): RouteOptions[] {
  const csrf = ctx.formTokens(CSRF_PURPOSE);
  const csrfFor = (tenant: Tenant, ticket: string) => csrf.token(tenant.id, secretHash(ticket));

  const form = async (request: FastifyRequest, reply: FastifyReply) => {
    const { ticket } = pageParams(request, PARAMS);
    if (!validTicket(ticket) || !(await setupTicketUsable(ctx, request.tenant, ticket))) return sendPage(reply, 400, invalidSetupLink());
    const connection = await consoleConnection(ctx.stores.connections, request.tenant.id);
    const view: SetupFormView = { ticket, csrf: csrfFor(request.tenant, ticket), policy: checkPassword(passwordOptions(connection), '') };
    return sendPage(reply, connection ? 200 : 409, setupFormPage(connection ? view : { ...view, error: 'no-db-connection' }));
  };

  const submit = async (request: FastifyRequest, reply: FastifyReply) => {
    const { tenant } = request;
    const params = pageParams(request, PARAMS);
    const { ticket } = params;
    if (!validTicket(ticket)) return sendPage(reply, 400, invalidSetupLink());
    if (!csrf.matches(params.csrf_token, tenant.id, secretHash(ticket))) return sendPage(reply, 403, refusedLinkPage());
    if (!(await setupTicketUsable(ctx, tenant, ticket))) return sendPage(reply, 400, invalidSetupLink());
    const connection = await consoleConnection(ctx.stores.connections, tenant.id);
    const email = (params.email ?? '').trim();
    const password = params.password ?? '';
    const policy = checkPassword(passwordOptions(connection), password);
    const again = (status: number, error: SetupError) =>
      sendPage(reply, status, setupFormPage({ ticket, csrf: csrfFor(tenant, ticket), policy: error === 'password-too-weak' ? policy : checkPassword(passwordOptions(connection), ''), email, error }));
    if (!connection) return again(409, 'no-db-connection');
    if (email.length > 254 || !EMAIL.test(email)) return again(400, 'invalid-email');
    if (params.password_confirmation !== password) return again(400, 'password-mismatch');
    if (!policy.verified) return again(400, 'password-too-weak');

    const roleId = await ensureAdministratorRole(ctx, tenant);
    const now = ctx.now();
    const user = await newDatabaseUserRow({ tenantId: tenant.id, connectionId: connection.id, email, password, now: isoAt(now) });
    let outcome: 'done' | 'spent' | 'exists';
    try {
      outcome = await ctx.unitOfWork.transaction(async (stores) => {
        if (!(await spendSetupTicket(stores, tenant, ticket, now))) return 'spent';
        await stores.users.insert(user);
        const assigned = await stores.rbac.assignUserRoles(tenant.id, user.user_id, [roleId], isoAt(now));
        if (assigned.status !== 'assigned') throw new Error(`the ${ADMINISTRATOR_ROLE_NAME} role could not be assigned: ${assigned.status}`);
        return 'done';
      });
    } catch (error) {
      // The address is taken in that connection; the transaction rolled back, so the ticket still works.
      if (!isUniqueViolation(error)) throw error;
      outcome = 'exists';
    }
    if (outcome === 'spent') return sendPage(reply, 400, invalidSetupLink());
    if (outcome === 'exists') return again(409, 'user-exists');
    ctx.logger.info({ tenant: tenant.name, user_id: user.user_id }, 'admin console: first administrator created through a setup link');
    await sessions.start(tenant, user, reply);
    return reply.redirect(CONSOLE_PATH, 303);
  };

  return [
    { method: 'GET', url: `${CONSOLE_PATH}setup`, handler: form },
    { method: 'POST', url: `${CONSOLE_PATH}setup`, handler: submit },
  ];
}
