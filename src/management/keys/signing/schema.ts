/** Schemas of /api/v2/keys/signing, after the service's OpenAPI document (`SigningKeys`, `RotateSigningKeysResponseContent`, `RevokedSigningKeysResponseContent`). */
import { Type, type Static } from '@sinclair/typebox';

export const SigningKeyParams = Type.Object(
  { kid: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description: 'Key id of the key' }) },
  { additionalProperties: false },
);

/** A signing key as the service lists it: public parts only, never the private key. */
export const SigningKeyResponse = Type.Object(
  {
    kid: Type.String({ description: 'The key id of the signing key' }),
    cert: Type.String({ description: 'The public certificate of the signing key' }),
    pkcs7: Type.String({ description: 'The public certificate of the signing key in pkcs7 format' }),
    current: Type.Boolean({ description: 'True if the key is the the current key' }),
    next: Type.Boolean({ description: 'True if the key is the the next key' }),
    previous: Type.Boolean({ description: 'True if the key is the the previous key' }),
    current_since: Type.Optional(Type.String({ description: 'The date and time when the key became the current key' })),
    current_until: Type.Optional(Type.String({ description: 'The date and time when the current key was rotated' })),
    fingerprint: Type.String({ description: 'The cert fingerprint' }),
    thumbprint: Type.String({ description: 'The cert thumbprint' }),
    revoked: Type.Boolean({ description: 'True if the key is revoked' }),
    revoked_at: Type.Optional(Type.String({ description: 'The date and time when the key was revoked' })),
  },
  { additionalProperties: false },
);
export type SigningKeyView = Static<typeof SigningKeyResponse>;

/** The answer of rotate (the new next key) and of revoke (the revoked key). */
export const SigningKeyIdentity = Type.Object(
  { cert: Type.String({ description: 'The key certificate' }), kid: Type.String({ description: 'The key id' }) },
  { additionalProperties: false },
);
export type SigningKeyIdentity = Static<typeof SigningKeyIdentity>;
