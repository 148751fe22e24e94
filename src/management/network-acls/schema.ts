/**
 * Schemas of network ACLs, from the service's OpenAPI document
 * (`CreateNetworkAclRequestContent`, `SetNetworkAclRequestContent`,
 * `UpdateNetworkAclRequestContent`, `NetworkAclRule`, `NetworkAclMatch`).
 * Every signal of the document is recognised in `match` / `not_match`, so
 * that the ones Gatehouse cannot evaluate are refused by name
 * (./service.ts); each list holds at most MAX_SIGNAL_VALUES values, as the
 * service allows, without repeats.
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

export const MAX_SIGNAL_VALUES = 10;

const list = <T extends TSchema>(item: T) => Type.Optional(Type.Array(item, { minItems: 1, maxItems: MAX_SIGNAL_VALUES, uniqueItems: true }));
const text = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL_CHARACTERS });

const Match = Type.Object(
  {
    asns: list(Type.Integer({ minimum: 0, maximum: 4294967295 })),
    geo_country_codes: list(text(2)),
    geo_subdivision_codes: list(text(8)),
    ipv4_cidrs: list(text(18)),
    ipv6_cidrs: list(text(49)),
    ja3_fingerprints: list(text(64)),
    ja4_fingerprints: list(text(64)),
    user_agents: list(text(512)),
    hostnames: list(text(253)),
    connecting_ipv4_cidrs: list(text(18)),
    connecting_ipv6_cidrs: list(text(49)),
  },
  { additionalProperties: false },
);
export type MatchBody = Static<typeof Match>;

const ActionFlag = (what: string) => Type.Optional(Type.Literal(true, { description: `Indicates the rule will ${what} requests that either match or not_match specific criteria` }));

export const Rule = Type.Object(
  {
    action: Type.Object(
      {
        block: ActionFlag('block'),
        allow: ActionFlag('allow'),
        log: ActionFlag('log'),
        redirect: ActionFlag('redirect'),
        redirect_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'The URI to which the match or not_match requests will be routed' })),
      },
      { additionalProperties: false },
    ),
    match: Type.Optional(Match),
    not_match: Type.Optional(Match),
    scope: Type.Union([Type.Literal('management'), Type.Literal('authentication'), Type.Literal('tenant'), Type.Literal('dynamic_client_registration')], {
      description: 'Identifies the origin of the request as the Management API (management), Authentication API (authentication), Dynamic Client Registration API (dynamic_client_registration), or any (tenant)',
    }),
  },
  { additionalProperties: false },
);
export type RuleBody = Static<typeof Rule>;

const Description = Type.String({ maxLength: 255, pattern: NO_CONTROL_CHARACTERS });
const Active = Type.Boolean({ description: 'Indicates whether or not this access control list is actively being used' });
const Priority = Type.Integer({ minimum: 1, maximum: 100, description: 'Indicates the order in which the ACL will be evaluated relative to other ACL rules.' });

/** POST and PUT take the same body (`priority` defaults to 50). */
export const SetNetworkAclBody = Type.Object(
  { description: Description, active: Active, priority: Type.Optional(Priority), rule: Rule },
  { additionalProperties: false },
);
export type SetNetworkAclBody = Static<typeof SetNetworkAclBody>;

export const UpdateNetworkAclBody = Type.Partial(SetNetworkAclBody, { additionalProperties: false });
export type UpdateNetworkAclBody = Static<typeof UpdateNetworkAclBody>;

export const NetworkAclResponse = Type.Object(
  {
    id: Type.String(),
    description: Type.String(),
    active: Type.Boolean(),
    priority: Type.Number(),
    rule: Type.Unsafe<RuleBody>({ type: 'object', additionalProperties: true }),
    created_at: Type.String({ description: 'The timestamp when the Network ACL Configuration was created' }),
    updated_at: Type.String({ description: 'The timestamp when the Network ACL Configuration was last updated' }),
  },
  { additionalProperties: false },
);
export type NetworkAclResponse = Static<typeof NetworkAclResponse>;

export const NetworkAclList = Type.Union([
  Type.Array(NetworkAclResponse),
  Type.Object(
    { network_acls: Type.Array(NetworkAclResponse), start: Type.Number(), limit: Type.Number(), total: Type.Number() },
    { additionalProperties: false },
  ),
]);

export const ListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, description: 'Use this field to request a specific page of the list results.' })),
    per_page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100, description: 'The amount of results per page.' })),
    include_totals: Type.Optional(Type.Boolean({ description: 'Return results inside an object that contains the total result count (true) or as a direct array of results (false, default).' })),
  },
  { additionalProperties: false },
);

export const NetworkAclParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 36, description: 'The id of the access control list.' }) });
