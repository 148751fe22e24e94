/** The request and response shapes of the CIMD operations (the service's PreviewCimdMetadata* and RegisterCimdClient* schemas). */
import { Type } from '@sinclair/typebox';

export const CimdBody = Type.Object(
  {
    external_client_id: Type.String({ minLength: 1, maxLength: 120, description: 'URL to the Client ID Metadata Document' }),
  },
  { additionalProperties: false },
);

const Strings = Type.Array(Type.String());

export const CimdValidationResult = Type.Object({ valid: Type.Boolean(), violations: Strings, warnings: Strings }, { additionalProperties: false });

export const CimdMappedClientFields = Type.Object(
  {
    external_client_id: Type.String(),
    name: Type.String(),
    app_type: Type.String(),
    callbacks: Strings,
    logo_uri: Type.Optional(Type.String()),
    grant_types: Strings,
    token_endpoint_auth_method: Type.String(),
    jwks_uri: Type.Optional(Type.String()),
    client_authentication_methods: Type.Optional(
      Type.Object(
        {
          private_key_jwt: Type.Object(
            { credentials: Type.Array(Type.Object({ credential_type: Type.String(), kid: Type.String(), alg: Type.String() }, { additionalProperties: false })) },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const PreviewCimdResponse = Type.Object(
  {
    client_id: Type.Optional(Type.String()),
    errors: Type.Optional(Strings),
    validation: Type.Optional(CimdValidationResult),
    mapped_fields: Type.Optional(CimdMappedClientFields),
  },
  { additionalProperties: false },
);

export const RegisterCimdResponse = Type.Object(
  { client_id: Type.String(), mapped_fields: CimdMappedClientFields, validation: CimdValidationResult },
  { additionalProperties: false },
);
