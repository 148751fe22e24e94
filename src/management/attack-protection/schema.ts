/**
 * Schemas of /api/v2/attack-protection/*, from the service's OpenAPI
 * document (`GetBruteForceSettingsResponseContent`,
 * `UpdateBruteForceSettingsRequestContent`, the suspicious IP throttling and
 * breached password detection ones). Allowlists are bounded (100 entries of
 * at most 50 characters: Gatehouse's limits, the document gives none) and
 * checked as IP addresses or CIDR blocks by the service.
 */
import { Type, type TSchema } from '@sinclair/typebox';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((v) => Type.Literal(v)));
const list = (item: TSchema) => Type.Array(item, { maxItems: 10, uniqueItems: true });
const allowlist = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 100, description: 'List of trusted IP addresses that will not have attack protection enforced against them.' });

const bruteForce = {
  enabled: Type.Boolean({ description: 'Whether or not brute force attack protections are active.' }),
  shields: list(literals(['block', 'user_notification'] as const)),
  allowlist,
  mode: literals(['count_per_identifier_and_ip', 'count_per_identifier'] as const),
  max_attempts: Type.Integer({ minimum: 1, maximum: 100, description: 'Maximum number of unsuccessful attempts.' }),
};

const stage = (maxAttempts: { minimum: number; maximum: number }, rate: { minimum: number; maximum: number }) =>
  Type.Object({ max_attempts: Type.Integer(maxAttempts), rate: Type.Integer(rate) }, { additionalProperties: false });
const partialStage = (maxAttempts: { minimum: number; maximum: number }, rate: { minimum: number; maximum: number }) =>
  Type.Partial(stage(maxAttempts, rate), { additionalProperties: false });
const PRE_LOGIN = [{ minimum: 1, maximum: 2500 }, { minimum: 34560, maximum: 86400000 }] as const;
const PRE_REGISTRATION = [{ minimum: 1, maximum: 72000 }, { minimum: 1200, maximum: 86400000 }] as const;

const suspiciousIp = {
  enabled: Type.Boolean({ description: 'Whether or not suspicious IP throttling attack protections are active.' }),
  shields: list(literals(['block', 'admin_notification'] as const)),
  allowlist,
};

const registrationShields = list(literals(['block', 'admin_notification'] as const));
const breached = {
  enabled: Type.Boolean({ description: 'Whether or not breached password detection is active.' }),
  shields: list(literals(['block', 'user_notification', 'admin_notification'] as const)),
  admin_notification_frequency: list(literals(['immediately', 'daily', 'weekly', 'monthly'] as const)),
  method: literals(['standard', 'enhanced'] as const),
};
const breachedStage = Type.Object(
  {
    'pre-user-registration': Type.Object({ shields: registrationShields }, { additionalProperties: false }),
    'pre-change-password': Type.Object({ shields: registrationShields }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const BruteForceResponse = Type.Object(bruteForce, { additionalProperties: false });
export const BruteForceBody = Type.Partial(Type.Object(bruteForce), { additionalProperties: false });

export const SuspiciousIpResponse = Type.Object(
  {
    ...suspiciousIp,
    stage: Type.Object({ 'pre-login': stage(...PRE_LOGIN), 'pre-user-registration': stage(...PRE_REGISTRATION) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export const SuspiciousIpBody = Type.Partial(
  Type.Object({
    ...suspiciousIp,
    stage: Type.Partial(Type.Object({ 'pre-login': partialStage(...PRE_LOGIN), 'pre-user-registration': partialStage(...PRE_REGISTRATION) }), { additionalProperties: false }),
  }),
  { additionalProperties: false },
);

export const BreachedResponse = Type.Object({ ...breached, stage: breachedStage }, { additionalProperties: false });
export const BreachedBody = Type.Partial(
  Type.Object({
    ...breached,
    stage: Type.Partial(
      Type.Object({
        'pre-user-registration': Type.Object({ shields: registrationShields }, { additionalProperties: false }),
        'pre-change-password': Type.Object({ shields: registrationShields }, { additionalProperties: false }),
      }),
      { additionalProperties: false },
    ),
  }),
  { additionalProperties: false },
);

// Bot detection (`GetBotDetectionSettingsResponseContent`, `UpdateBotDetectionSettingsRequestContent`).
const challengePolicy = literals(['never', 'when_risky', 'always'] as const);
const botDetection = {
  bot_detection_level: literals(['low', 'medium', 'high'] as const),
  challenge_password_policy: challengePolicy,
  challenge_passwordless_policy: challengePolicy,
  challenge_password_reset_policy: challengePolicy,
  allowlist: Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 100, description: 'List of IP addresses or CIDR blocks to allowlist' }),
  monitoring_mode_enabled: Type.Boolean({ description: 'Whether monitoring mode is enabled (logs but does not block)' }),
};
export const BotDetectionResponse = Type.Object(botDetection, { additionalProperties: false });
export const BotDetectionBody = Type.Partial(Type.Object(botDetection), { additionalProperties: false });

// CAPTCHA (`GetAttackProtectionCaptchaResponseContent`, `UpdateAttackProtectionCaptchaRequestContent`): secrets are accepted, never answered.
const key = (description: string) => Type.String({ maxLength: 100, description });
const siteKeyAndSecret = (name: string) =>
  Type.Object({ site_key: key(`The site key for the ${name} provider.`), secret: key(`The secret key for the ${name} provider.`) }, { additionalProperties: false });
export const CaptchaBody = Type.Partial(
  Type.Object({
    active_provider_id: Type.Union(
      ['arkose', 'auth_challenge', 'friendly_captcha', 'hcaptcha', 'recaptcha_v2', 'recaptcha_enterprise', 'simple_captcha'].map((id) => Type.Literal(id)),
      { description: 'The id of the active provider for the CAPTCHA.' },
    ),
    arkose: Type.Object(
      {
        site_key: key('The site key for the Arkose captcha provider.'),
        secret: key('The secret key for the Arkose captcha provider.'),
        client_subdomain: Type.Optional(key('The subdomain used for client requests to the Arkose captcha provider.')),
        verify_subdomain: Type.Optional(key('The subdomain used for server-side verification requests to the Arkose captcha provider.')),
        fail_open: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    auth_challenge: Type.Object({ fail_open: Type.Boolean() }, { additionalProperties: false }),
    hcaptcha: siteKeyAndSecret('hCaptcha'),
    friendly_captcha: siteKeyAndSecret('Friendly Captcha'),
    recaptcha_enterprise: Type.Object(
      { site_key: key('The site key for the reCAPTCHA Enterprise provider.'), api_key: key('The API key for the reCAPTCHA Enterprise provider.'), project_id: key('The project ID for the reCAPTCHA Enterprise provider.') },
      { additionalProperties: false },
    ),
    recaptcha_v2: siteKeyAndSecret('reCAPTCHA v2'),
    simple_captcha: Type.Object({}, { additionalProperties: false }),
  }),
  { additionalProperties: false },
);
const siteKeyOnly = Type.Object({ site_key: Type.Optional(Type.String()) }, { additionalProperties: false });
export const CaptchaResponse = Type.Object(
  {
    active_provider_id: Type.String(),
    arkose: Type.Optional(
      Type.Object(
        { site_key: Type.Optional(Type.String()), fail_open: Type.Optional(Type.Boolean()), client_subdomain: Type.Optional(Type.String()), verify_subdomain: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
    auth_challenge: Type.Optional(Type.Object({ fail_open: Type.Optional(Type.Boolean()) }, { additionalProperties: false })),
    hcaptcha: Type.Optional(siteKeyOnly),
    friendly_captcha: Type.Optional(siteKeyOnly),
    recaptcha_enterprise: Type.Optional(Type.Object({ site_key: Type.Optional(Type.String()), project_id: Type.Optional(Type.String()) }, { additionalProperties: false })),
    recaptcha_v2: Type.Optional(siteKeyOnly),
    simple_captcha: Type.Optional(Type.Object({}, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

// Phone provider protection (`GetPhoneProviderProtectionResponseContent`, `PatchPhoneProviderProtectionRequestContent`):
// the document's `exponential` and `none`, and `default`, the `auth0` SDK's name for no backoff (taken and answered as given).
const backoff = { type: literals(['exponential', 'none', 'default'] as const) };
export const PhoneProviderProtectionResponse = Type.Object(backoff, { additionalProperties: false });
export const PhoneProviderProtectionBody = Type.Object(backoff, { additionalProperties: false });
