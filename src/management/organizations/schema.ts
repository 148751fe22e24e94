/**
 * Organization schemas, from the service's OpenAPI document
 * (`CreateOrganizationRequestContent`, `UpdateOrganizationRequestContent`,
 * `Organization`, `OrganizationBranding`, `OrganizationMetadata`).
 *
 * The document's formats `organization-name`, `html-color` and
 * `strict-https-uri-or-null` are checked by the service (see service.ts), with
 * the messages schema validation would give.
 */
import { Type, type Static } from '@sinclair/typebox';
import { FreeObject } from '../../platform/http/schema-types.js';

export const DESCRIPTIONS = {
  name: 'The name of this organization',
  logo_url: 'URL of logo to display on login page',
  primary: 'HEX Color for primary elements',
  page_background: 'HEX Color for background',
} as const;

const name = Type.String({ minLength: 1, maxLength: 50, description: DESCRIPTIONS.name });
const display_name = Type.String({ minLength: 1, maxLength: 255, description: 'Friendly name of this organization' });

const Colors = Type.Object(
  {
    primary: Type.String({ description: DESCRIPTIONS.primary }),
    page_background: Type.String({ description: DESCRIPTIONS.page_background }),
  },
  { additionalProperties: false, description: 'Color scheme used to customize the login pages' },
);

const Branding = Type.Object(
  {
    logo_url: Type.Optional(Type.String({ description: DESCRIPTIONS.logo_url })),
    colors: Type.Optional(Colors),
  },
  { additionalProperties: false, description: 'Theme defines how to style the login pages' },
);
export type Branding = Static<typeof Branding>;

/** String values (null drops the key), at most 25 of them. */
const Metadata = Type.Unsafe<Record<string, string | null>>({
  type: 'object',
  additionalProperties: { type: ['string', 'null'], maxLength: 255 },
  maxProperties: 25,
  description:
    'Metadata associated with the organization, in the form of an object with string values (max 255 chars). ' +
    'Maximum of 25 metadata properties allowed',
});

export const CreateOrganizationBody = Type.Object(
  {
    name,
    display_name: Type.Optional(display_name),
    branding: Type.Optional(Branding),
    metadata: Type.Optional(Metadata),
    // Declared so that a request using them is told they are unsupported, not that they are unknown.
    enabled_connections: Type.Optional(
      Type.Array(FreeObject(), { description: 'Connections that will be enabled for this organization' }),
    ),
    token_quota: Type.Optional(FreeObject({ description: 'Token quota' })),
  },
  { additionalProperties: false },
);
export type CreateOrganizationBody = Static<typeof CreateOrganizationBody>;

export const UpdateOrganizationBody = Type.Object(
  {
    display_name: Type.Optional(display_name),
    name: Type.Optional(name),
    branding: Type.Optional(Branding),
    metadata: Type.Optional(Metadata),
    token_quota: Type.Optional(FreeObject({ description: 'Token quota' })),
  },
  { additionalProperties: false },
);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

export const OrganizationResponse = Type.Object(
  {
    id: Type.String({ description: 'Organization identifier' }),
    name: Type.String(),
    display_name: Type.Optional(Type.String()),
    branding: Type.Optional(
      Type.Object(
        {
          logo_url: Type.Optional(Type.String()),
          colors: Type.Optional(Type.Object({ primary: Type.String(), page_background: Type.String() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    metadata: Type.Optional(Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } })),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'ID of the organization' }) });

/** Paths whose `id` the document limits to 50 characters (DELETE and the sub-resources). */
export const OrganizationIdParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 50, description: 'Organization identifier' }),
});
