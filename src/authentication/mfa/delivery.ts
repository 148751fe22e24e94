/**
 * Sending an out-of-band binding code to the user: email through the mail
 * transport (src/platform/mail). The message is handed over without waiting
 * for delivery (a slow mail server must not hold the request); a failure is
 * logged without the message, which carries a live code.
 */
import type { AppContext } from '../../domain/context.js';
import type { Authenticator } from '../../domain/mfa/model.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';

export function bindingCodeSender(ctx: AppContext, tenant: Tenant, authenticator: Authenticator): (code: string) => Promise<void> {
  return async (code) => {
    if (authenticator.type === 'email' && authenticator.email !== null) {
      const minutes = Math.round(lifetimeOf(tenant, 'mfa_oob_code') / 60);
      ctx.mailer
        .send(tenant.domain, {
          to: authenticator.email,
          subject: `${tenant.name} verification code`,
          text: `Your verification code is ${code}\n\nIt expires in ${minutes} minutes. If you did not try to log in, you can ignore this message.\n`,
        })
        .catch((err: unknown) => ctx.logger.error({ err, tenant: tenant.name, purpose: 'mfa_email' }, 'sending mail failed'));
      return;
    }
    throw oauthErrors.invalidRequest(`Codes cannot be sent to ${authenticator.type} authenticators.`);
  };
}
