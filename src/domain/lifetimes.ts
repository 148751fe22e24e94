/**
 * Every lifetime Gatehouse gives what it issues, in one place (the habit of
 * node-oidc-provider's `defaults.js`): the value, what it is, and what it
 * affects. A tenant may override any of them in its settings
 * (`lifetimes: { name: seconds }`); `lifetimeOf` reads the override first.
 *
 * Lifetimes that belong to a configured object are not here: an API's access
 * tokens (`token_lifetime` of the resource server, default
 * DEFAULT_TOKEN_LIFETIME in ./resource-servers/model.ts), a client's ID
 * tokens (`jwt_configuration.lifetime_in_seconds`) and refresh tokens (the
 * client's `refresh_token` settings).
 */
import type { Tenant } from './tenants/tenant.js';

export interface LifetimeDefault {
  /** Seconds. */
  seconds: number;
  description: string;
  /** What a change of it affects. */
  affects: string;
}

export const LIFETIMES = {
  authorize_transaction: {
    seconds: 600,
    description: 'How long an /authorize request waits for its login, signup or consent.',
    affects: 'The hosted pages: after it, they show "This login has expired" and the application must start again.',
  },
  authorization_code: {
    seconds: 60,
    description: 'How long an authorization code may be exchanged (RFC 6749 §4.1.2 recommends at most 10 minutes).',
    affects: 'POST /oauth/token with grant_type=authorization_code.',
  },
  session: {
    seconds: 3 * 24 * 3600,
    description:
      'How long a login session (the __Host-gh_session cookie) lasts from the login, unless the tenant settings set session_lifetime (src/domain/sessions/policy.ts, which adds the idle and ephemeral lifetimes).',
    affects: 'Single sign-on: /authorize without a new login, prompt=none, silent authentication.',
  },
  email_verification_ticket: {
    seconds: 5 * 24 * 3600,
    description: 'How long an emailed email verification link works.',
    affects: 'The /verify-email page.',
  },
  password_reset_ticket: {
    seconds: 3600,
    description: 'How long an emailed password reset link works.',
    affects: 'The /reset-password page.',
  },
  export_link: {
    seconds: 3600,
    description: 'How long the download link of a users export (`location` of GET /api/v2/jobs/{id}) works from when it was handed out.',
    affects: 'GET /jobs/exports/{id}/{file}: after it, 403; ask GET /jobs/{id} for a new link.',
  },
  userinfo_token: {
    seconds: 86_400,
    description: 'Access tokens for /userinfo alone (no API audience) from the token endpoint (wire notes §4, §6).',
    affects: 'GET|POST /userinfo with such a token.',
  },
  front_channel_userinfo_token: {
    seconds: 7200,
    description: 'Access tokens for /userinfo alone returned by the implicit and hybrid flows (wire notes §4).',
    affects: 'GET|POST /userinfo with such a token.',
  },
  mfa_token: {
    seconds: 600,
    description: 'How long the mfa_token of an mfa_required answer may be used (the service: 10 minutes).',
    affects: 'POST /mfa/associate, /mfa/challenge, /mfa/authenticators and the MFA grants of /oauth/token with that token.',
  },
  mfa_remember_browser: {
    seconds: 30 * 24 * 3600,
    description: 'How long a browser that passed a second factor is not asked for one again by the same user (the service: 30 days).',
    affects: 'The MFA step of the hosted login (the __Host-gh_mfa cookie); acr_values asking for MFA still asks.',
  },
  mfa_oob_code: {
    seconds: 300,
    description: 'How long the oob_code and binding code of an email or SMS challenge may be used.',
    affects: 'The mfa-oob grant and the hosted MFA challenge page.',
  },
  mfa_api_token: {
    seconds: 600,
    description: 'Access tokens for the MFA API (https://{domain}/mfa/); the service fixes them at 10 minutes.',
    affects: 'GET/DELETE /mfa/authenticators and POST /mfa/associate with such a token.',
  },
  mfa_enrollment_ticket: {
    seconds: 5 * 24 * 3600,
    description: 'How long an MFA enrollment ticket (POST /api/v2/guardian/enrollments/ticket) may be used.',
    affects: 'The /guardian/enroll page of the ticket_url.',
  },
  device_code: {
    seconds: 900,
    description: 'How long a device authorization request (RFC 8628) waits for the user on /activate (wire notes §12: expires_in 900).',
    affects: 'POST /oauth/device/code `expires_in`, the /activate pages and the device_code grant (`expired_token` after it).',
  },
  login_ticket: {
    seconds: 60,
    description: 'How long the login_ticket of a cross-origin login (POST /co/authenticate) may be redeemed at /authorize, once (Gatehouse\'s choice: the service does not document it; auth0.js redirects at once).',
    affects: 'Embedded login with auth0.js and Lock: /authorize?login_ticket=… after it answers access_denied.',
  },
  checkpoint: {
    seconds: 24 * 3600,
    description: 'How long a checkpoint paging `next` value of the Management API stays usable (spec, Limits).',
    affects: 'Management API lists paged with from/take.',
  },
} as const satisfies Record<string, LifetimeDefault>;

export type LifetimeName = keyof typeof LIFETIMES;

/** The tenant's lifetime `name` in seconds: its override when it has one, else the default above. */
export function lifetimeOf(tenant: Pick<Tenant, 'settings'> | undefined, name: LifetimeName): number {
  const override = tenant?.settings.lifetimes?.[name];
  return typeof override === 'number' && Number.isInteger(override) && override > 0 ? override : LIFETIMES[name].seconds;
}
