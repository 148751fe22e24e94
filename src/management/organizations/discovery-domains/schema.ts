/**
 * Schemas of organizations' discovery domains, from the service's OpenAPI
 * document (`CreateOrganizationDiscoveryDomainRequestContent`,
 * `UpdateOrganizationDiscoveryDomainRequestContent`,
 * `OrganizationDiscoveryDomain`, `ListOrganizationDiscoveryDomainsResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery } from '../../lists.js';

/** The document's pattern: dot-separated labels of letters, digits and inner hyphens. */
const DOMAIN_PATTERN = '^(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])\\.)*([A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])$';

const Status = Type.Union([Type.Literal('pending'), Type.Literal('verified')], { description: 'The verification status of the discovery domain.' });
const useForDiscovery = Type.Boolean({ description: 'Indicates whether this domain should be used for organization discovery.' });

export const CreateDiscoveryDomainBody = Type.Object(
  {
    domain: Type.String({ minLength: 3, maxLength: 255, pattern: DOMAIN_PATTERN, description: 'The domain name to associate with the organization e.g. acme.com.' }),
    status: Type.Optional(Status),
    use_for_organization_discovery: Type.Optional(useForDiscovery),
  },
  { additionalProperties: false },
);
export type CreateDiscoveryDomainBody = Static<typeof CreateDiscoveryDomainBody>;

export const UpdateDiscoveryDomainBody = Type.Object(
  { status: Type.Optional(Status), use_for_organization_discovery: Type.Optional(useForDiscovery) },
  { additionalProperties: false },
);
export type UpdateDiscoveryDomainBody = Static<typeof UpdateDiscoveryDomainBody>;

/** Members in the order the document lists them. */
export const DiscoveryDomainResponse = Type.Object(
  {
    id: Type.String(),
    domain: Type.String(),
    status: Status,
    use_for_organization_discovery: useForDiscovery,
    verification_txt: Type.String(),
    verification_host: Type.String(),
  },
  { additionalProperties: false },
);

export const DiscoveryDomainListResponse = Type.Object(
  { next: Type.Optional(Type.String()), domains: Type.Array(DiscoveryDomainResponse) },
  { additionalProperties: false },
);

export const DiscoveryDomainListQuery = Type.Object({ from: CheckpointQuery.from, take: CheckpointQuery.take }, { additionalProperties: true });

const organizationId = Type.String({ minLength: 1, maxLength: 50, description: 'ID of the organization.' });

export const DiscoveryDomainParams = Type.Object({
  id: organizationId,
  discovery_domain_id: Type.String({ minLength: 1, maxLength: 50, description: 'ID of the discovery domain.' }),
});

export const DiscoveryDomainNameParams = Type.Object({
  id: organizationId,
  discovery_domain: Type.String({ minLength: 3, maxLength: 255, description: 'Domain name of the discovery domain.' }),
});
