/**
 * Schemas of /api/v2/keys/encryption, after the service's OpenAPI document
 * (`EncryptionKey`, `CreateEncryptionKeyRequestContent`,
 * `ImportEncryptionKeyRequestContent`,
 * `CreateEncryptionKeyPublicWrappingResponseContent`).
 */
import { Type, type Static } from '@sinclair/typebox';
import { OffsetQuery } from '../../lists.js';

export const EncryptionKeyParams = Type.Object(
  { kid: Type.String({ minLength: 1, maxLength: 64, description: 'Encryption key ID' }) },
  { additionalProperties: false },
);

export const EncryptionKeysQuery = Type.Object(OffsetQuery, { additionalProperties: false });
export type EncryptionKeysQuery = Static<typeof EncryptionKeysQuery>;

const TYPES = ['customer-provided-root-key', 'environment-root-key', 'tenant-master-key', 'tenant-encryption-key'] as const;
const STATES = ['pre-activation', 'active', 'deactivated', 'destroyed'] as const;

/** A key as the service shows it: never its material. */
export const EncryptionKey = Type.Object(
  {
    kid: Type.String({ description: 'Key ID' }),
    type: Type.Union(TYPES.map((t) => Type.Literal(t)), { description: 'Key type' }),
    state: Type.Union(STATES.map((s) => Type.Literal(s)), { description: 'Key state' }),
    created_at: Type.String({ format: 'date-time', description: 'Key creation timestamp' }),
    updated_at: Type.String({ format: 'date-time', description: 'Key update timestamp' }),
    parent_kid: Type.Union([Type.String(), Type.Null()], { description: 'ID of parent wrapping key' }),
    public_key: Type.Union([Type.String(), Type.Null()], { description: 'Public key in PEM format' }),
  },
  { additionalProperties: false, description: 'Encryption key' },
);

export const CreateEncryptionKeyBody = Type.Object(
  {
    type: Type.Union([Type.Literal('customer-provided-root-key'), Type.Literal('tenant-encryption-key')], { description: 'Type of the encryption key to be created.' }),
  },
  { additionalProperties: false },
);
export type CreateEncryptionKeyBody = Static<typeof CreateEncryptionKeyBody>;

export const ImportEncryptionKeyBody = Type.Object(
  {
    wrapped_key: Type.String({
      minLength: 1,
      maxLength: 4096,
      pattern: '^[A-Za-z0-9+/=\\s]+$',
      description: 'Base64 encoded ciphertext of key material wrapped by public wrapping key.',
    }),
  },
  { additionalProperties: false },
);
export type ImportEncryptionKeyBody = Static<typeof ImportEncryptionKeyBody>;

export const WrappingKey = Type.Object(
  {
    public_key: Type.String({ description: 'Public wrapping key in PEM format' }),
    algorithm: Type.Literal('CKM_RSA_AES_KEY_WRAP', { description: 'Encryption algorithm that shall be used to wrap your key material' }),
  },
  { additionalProperties: false },
);
