/**
 * Device-credential schemas, from the service's OpenAPI document
 * (`DeviceCredential`, `CreatePublicKeyDeviceCredentialRequestContent`, the
 * query of GET /device-credentials). Gatehouse bounds what the document
 * leaves open: `device_name` to 256 characters, `value` to 8192 base64
 * characters (a public key in any common encoding fits).
 */
import { Type } from '@sinclair/typebox';
import { FieldsQuery } from '../fields.js';
import { OffsetQuery } from '../lists.js';
import { NO_CONTROL_CHARACTERS } from '../strings.js';

export const DEVICE_CREDENTIAL_TYPES = ['public_key', 'refresh_token', 'rotating_refresh_token'] as const;

export const DeviceCredentialResponse = Type.Object(
  {
    id: Type.String({ description: 'ID of this device.' }),
    device_name: Type.Optional(Type.String({ description: 'User agent for this device' })),
    device_id: Type.Optional(Type.String({ description: 'Unique identifier for the device' })),
    type: Type.Union(DEVICE_CREDENTIAL_TYPES.map((t) => Type.Literal(t)), { description: 'Type of credential' }),
    user_id: Type.String({ description: 'user_id this credential is associated with.' }),
    client_id: Type.String({ description: 'client_id of the client (application) this credential is for.' }),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object(
  {
    ...OffsetQuery,
    ...FieldsQuery,
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 512, description: 'user_id of the devices to retrieve' })),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'client_id of the devices to retrieve' })),
    type: Type.Optional(Type.Union(DEVICE_CREDENTIAL_TYPES.map((t) => Type.Literal(t)), { description: 'Type of credentials to retrieve. Must be `public_key`, `refresh_token` or `rotating_refresh_token`' })),
  },
  { additionalProperties: true },
);

export const CreateBody = Type.Object(
  {
    device_name: Type.String({ minLength: 1, maxLength: 256, pattern: NO_CONTROL_CHARACTERS, description: 'Name for this device easily recognized by owner' }),
    type: Type.Literal('public_key', { description: 'Type of credential. Must be `public_key`' }),
    value: Type.String({ minLength: 1, maxLength: 8192, pattern: '^[A-Za-z0-9+/_-]+={0,2}$', description: 'Base64 encoded string containing the credential' }),
    device_id: Type.String({ minLength: 1, maxLength: 36, pattern: '^[-A-Fa-f0-9]+$', description: 'Unique identifier for the device' }),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'client_id of the client (application) this credential is for' })),
  },
  { additionalProperties: false },
);

export const CreateResponse = Type.Object({ id: Type.String({ description: "The credential's identifier" }) }, { additionalProperties: false });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the credential to delete' }) });
