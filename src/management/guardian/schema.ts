/**
 * Push-notification factor schemas, written once from the spec's field tables
 * ("Push-notification APNs provider configuration", "… SNS provider
 * configuration", Limits) and the service's OpenAPI document
 * (`SetGuardianFactorsProviderPushNotification{Apns,Sns}RequestContent` and
 * their responses, `SetGuardianFactorsProviderPushNotificationRequestContent`,
 * `SetGuardianFactorRequestContent`). Request validation, response
 * serialisation and the TypeScript types derive from them.
 *
 * PUT and PATCH take the same body (as in the OpenAPI document); they differ
 * in what an absent member means, see service.ts.
 */
import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import { StringEnum } from '../../platform/http/schema-types.js';
import { PUSH_PROVIDERS } from '../../domain/guardian/model.js';

/** `type: ["string", "null"]` as the OpenAPI document writes it (not an anyOf, so errors name the property). */
function NullableString(options: { minLength?: number; maxLength?: number; pattern?: string; description?: string } = {}) {
  return Type.Unsafe<string | null>({ ...options, type: ['string', 'null'] });
}

function allOptional<T extends Record<string, TSchema>>(properties: T) {
  return Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)])) as {
    [K in keyof T]: TOptional<T[K]>;
  };
}

// ---------------------------------------------------------------------------
// APNs
// ---------------------------------------------------------------------------

const apns = {
  sandbox: Type.Boolean({
    description: 'Whether pushes go to the APNs sandbox (development) environment (true) or to production (false).',
  }),
  bundle_id: NullableString({ minLength: 1, maxLength: 1000, description: 'Bundle identifier of the iOS application.' }),
  p12: NullableString({
    minLength: 1,
    maxLength: 10000,
    description: 'Base64 encoding of the PKCS#12 (.p12) file holding the APNs client certificate and its key. Write-only.',
  }),
};

/** The p12 property's description, for the messages of the checks made beyond the schema. */
export const P12_DESCRIPTION = apns.p12.description as string;

export const ApnsBody = Type.Object(allOptional(apns), { additionalProperties: false });
export type ApnsBody = Static<typeof ApnsBody>;

/** GET: `{"enabled":false}` until configured, then the stored members and `enabled: true` (wire notes §4). */
export const ApnsProviderResponse = Type.Object(
  {
    bundle_id: Type.Optional(NullableString()),
    sandbox: Type.Optional(Type.Boolean()),
    // Optional as in the OpenAPI document (the service always sends it): a required member would be serialised first.
    enabled: Type.Optional(Type.Boolean({ description: 'Whether the APNs provider is configured.' })),
  },
  { additionalProperties: false },
);
export type ApnsProviderResponse = Static<typeof ApnsProviderResponse>;

/** PUT and PATCH: `{sandbox, bundle_id}` in that order; p12 is never echoed. */
export const ApnsUpdateResponse = Type.Object(
  { sandbox: Type.Optional(Type.Boolean()), bundle_id: Type.Optional(NullableString()) },
  { additionalProperties: false },
);
export type ApnsUpdateResponse = Static<typeof ApnsUpdateResponse>;

// ---------------------------------------------------------------------------
// SNS: each member string or null, 1 to 1000 characters (spec Limits)
// ---------------------------------------------------------------------------

/** Spec "aws_region pattern". */
export const AWS_REGION_PATTERN =
  '^(?:us-east-[0-9]{1,2}|us-west-[0-9]{1,2}|ap-southeast-[0-9]{1,2}|ap-northeast-[0-9]{1,2}|ap-central-[0-9]{1,2}|eu-west-[0-9]{1,2}|eu-central-[0-9]{1,2})$';

const sns = {
  aws_access_key_id: NullableString({ minLength: 1, maxLength: 1000, description: 'AWS access key ID.' }),
  aws_secret_access_key: NullableString({
    minLength: 1,
    maxLength: 1000,
    description: 'AWS secret access key. Write-only: echoed by the request that sets it, never returned by GET.',
  }),
  aws_region: NullableString({ minLength: 1, maxLength: 1000, pattern: AWS_REGION_PATTERN, description: 'AWS region.' }),
  sns_apns_platform_application_arn: NullableString({
    minLength: 1,
    maxLength: 1000,
    description: 'ARN of the SNS platform application for APNs (iOS).',
  }),
  sns_gcm_platform_application_arn: NullableString({
    minLength: 1,
    maxLength: 1000,
    description: 'ARN of the SNS platform application for GCM/FCM (Android).',
  }),
};

export const SnsBody = Type.Object(allOptional(sns), { additionalProperties: false });
export type SnsBody = Static<typeof SnsBody>;

const { aws_secret_access_key: _secret, ...snsReadable } = sns;

/** GET: the secret key is not even declared, so it cannot be serialised (STYLE 5). */
export const SnsProviderResponse = Type.Object(allOptional(snsReadable), { additionalProperties: false });
export type SnsProviderResponse = Static<typeof SnsProviderResponse>;

/** PUT and PATCH: the five members; the secret only when the request carried it (service.ts). */
export const SnsUpdateResponse = Type.Object(allOptional(sns), { additionalProperties: false });
export type SnsUpdateResponse = Static<typeof SnsUpdateResponse>;

// ---------------------------------------------------------------------------
// Selected provider and the factor itself
// ---------------------------------------------------------------------------

const provider = StringEnum(PUSH_PROVIDERS, {
  description: 'The provider that delivers push notifications: guardian, sns or direct.',
});

export const SelectedProviderBody = Type.Object({ provider }, { additionalProperties: false });
export type SelectedProviderBody = Static<typeof SelectedProviderBody>;
export const SelectedProviderResponse = Type.Object({ provider }, { additionalProperties: false });

const enabled = Type.Boolean({ description: 'Whether this factor is enabled (true) or disabled (false).' });

export const FactorBody = Type.Object({ enabled }, { additionalProperties: false });
export type FactorBody = Static<typeof FactorBody>;
export const FactorResponse = Type.Object({ enabled }, { additionalProperties: false });
