/** Schemas of /api/v2/custom-domains, after the service's OpenAPI document. */
import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from '../../platform/http/schema-types.js';

const DOMAIN_PATTERN = '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]{0,61}[a-zA-Z0-9])\\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]{0,61}[A-Za-z0-9])$';
const IP_HEADERS = ['true-client-ip', 'cf-connecting-ip', 'x-forwarded-for', 'x-azure-clientip'] as const;

const DomainMetadata = Type.Record(Type.String({ maxLength: 255 }), Type.Union([Type.String({ maxLength: 255 }), Type.Null()]), {
  maxProperties: 10,
  description: 'Domain metadata associated with the custom domain, in the form of an object with string values (max 255 chars). Maximum of 10 domain metadata properties allowed.',
});

export const CustomDomainParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }) }, { additionalProperties: false });

export const CreateCustomDomainBody = Type.Object(
  {
    domain: Type.String({ minLength: 3, maxLength: 255, pattern: DOMAIN_PATTERN, description: 'Domain name.' }),
    type: StringEnum(['auth0_managed_certs', 'self_managed_certs'] as const, { description: 'Custom domain provisioning type. Must be `auth0_managed_certs` or `self_managed_certs`.' }),
    verification_method: Type.Optional(StringEnum(['txt'] as const, { description: 'Custom domain verification method. Must be `txt`.' })),
    tls_policy: Type.Optional(StringEnum(['recommended'] as const, { description: 'Custom domain TLS policy. Must be `recommended`, includes TLS 1.2.' })),
    custom_client_ip_header: Type.Optional(Type.Union([StringEnum(IP_HEADERS), Type.Null()])),
    domain_metadata: Type.Optional(DomainMetadata),
  },
  { additionalProperties: false },
);
export type CreateCustomDomainBody = Static<typeof CreateCustomDomainBody>;

export const UpdateCustomDomainBody = Type.Object(
  {
    tls_policy: Type.Optional(StringEnum(['recommended'] as const)),
    custom_client_ip_header: Type.Optional(Type.Union([StringEnum(IP_HEADERS), Type.Null()])),
    domain_metadata: Type.Optional(DomainMetadata),
  },
  { additionalProperties: false },
);
export type UpdateCustomDomainBody = Static<typeof UpdateCustomDomainBody>;

const Verification = Type.Object(
  { methods: Type.Array(Type.Object({ name: Type.String(), record: Type.String(), domain: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
);

export const CustomDomainResponse = Type.Object(
  {
    custom_domain_id: Type.String(),
    domain: Type.String(),
    primary: Type.Boolean(),
    status: Type.String(),
    type: Type.String(),
    cname_api_key: Type.Optional(Type.String({ description: 'CNAME API key header, answered once, at the first verification of a self-managed domain.' })),
    origin_domain_name: Type.Optional(Type.String()),
    verification: Type.Optional(Verification),
    custom_client_ip_header: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    tls_policy: Type.Optional(Type.String()),
    domain_metadata: Type.Optional(Type.Record(Type.String(), Type.String())),
    is_default: Type.Optional(Type.Boolean({ description: 'Whether this is the default custom domain (true) or not (false).' })),
  },
  { additionalProperties: false },
);
export type CustomDomain = Static<typeof CustomDomainResponse>;

/** GET/PATCH /custom-domains/default: the default custom domain, or `{domain}` when it is the canonical domain. */
export const DefaultDomainResponse = Type.Union([CustomDomainResponse, Type.Object({ domain: Type.String() }, { additionalProperties: false })]);
export const SetDefaultDomainBody = Type.Object(
  { domain: Type.String({ minLength: 3, maxLength: 255, description: 'The domain to set as the default custom domain. Must be a verified custom domain or the canonical domain.' }) },
  { additionalProperties: false },
);
export const TestCustomDomainResponse = Type.Object({ success: Type.Boolean(), message: Type.Optional(Type.String()) }, { additionalProperties: false });
