/**
 * Schemas of rate limit policies, from the service's OpenAPI document
 * (`CreateRateLimitPolicyRequestContent`, `PatchRateLimitPolicyRequestContent`,
 * `RateLimitPolicyConfiguration`, `RateLimitPolicy`). The configuration's
 * three shapes (`allow`; `block`/`log` with `limit`; `redirect` with `limit`
 * and `redirect_uri`) are one object here, its combinations checked by
 * ./service.ts so that the refusal names the member at fault.
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

const Resource = Type.Union([Type.Literal('oauth_authentication_api')], { description: 'The API protected by the Rate Limit Policy.' });
const Consumer = Type.Union([Type.Literal('client')], { description: 'The consumer to which the rate limit policy applies.' });
const ConsumerSelector = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: NO_CONTROL_CHARACTERS,
  description: 'Identifier or category within the consumer to which the policy applies: `client_id:<client_id>`, `third_party_clients` or `default`.',
});

export const Configuration = Type.Object(
  {
    action: Type.Union([Type.Literal('allow'), Type.Literal('block'), Type.Literal('log'), Type.Literal('redirect')], { description: 'Determines the action to take when the rate limit is exceeded.' }),
    limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, description: 'The maximum number of requests allowed per second.' })),
    redirect_uri: Type.Optional(Type.String({ maxLength: 2048, description: 'The HTTPS URI to redirect to when the rate limit is exceeded.' })),
  },
  { additionalProperties: false, description: 'The configuration of the rate limit policy.' },
);
export type ConfigurationBody = Static<typeof Configuration>;

export const CreateRateLimitPolicyBody = Type.Object(
  { resource: Resource, consumer: Consumer, consumer_selector: ConsumerSelector, configuration: Configuration },
  { additionalProperties: false },
);
export type CreateRateLimitPolicyBody = Static<typeof CreateRateLimitPolicyBody>;

export const PatchRateLimitPolicyBody = Type.Object({ configuration: Configuration }, { additionalProperties: false });
export type PatchRateLimitPolicyBody = Static<typeof PatchRateLimitPolicyBody>;

export const RateLimitPolicyParams = Type.Object({ id: Type.String({ maxLength: 26, description: 'Unique identifier for the Rate Limit Policy.' }) });

export const ListQuery = Type.Object(
  {
    resource: Type.Optional(Resource),
    consumer: Type.Optional(Consumer),
    consumer_selector: Type.Optional(Type.String({ maxLength: 255 })),
    ...CheckpointQuery,
  },
  { additionalProperties: false },
);
export type ListQuery = Static<typeof ListQuery>;

export const RateLimitPolicyResponse = Type.Object(
  {
    id: Type.String(),
    resource: Type.String(),
    consumer: Type.String(),
    consumer_selector: Type.String(),
    configuration: Type.Object(
      { action: Type.String(), limit: Type.Optional(Type.Integer()), redirect_uri: Type.Optional(Type.String()) },
      { additionalProperties: false },
    ),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { additionalProperties: false },
);
export type RateLimitPolicyResponse = Static<typeof RateLimitPolicyResponse>;

export const RateLimitPolicyList = checkpointListResponse('rate_limit_policies', RateLimitPolicyResponse);
