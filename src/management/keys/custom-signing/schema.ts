/**
 * Custom signing keys, from the service's OpenAPI document
 * (`SetCustomSigningKeysRequestContent`, `CustomSigningKeyJWK`): public keys
 * only (a private member such as `d` is refused as an additional property).
 * At most MAX_CUSTOM_KEYS keys.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { CustomSigningJwk as StoredJwk } from '../../../domain/keys/custom-signing.js';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';

export const MAX_CUSTOM_KEYS = 10;

const B64 = (description: string, maxLength = 2048) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$', description });
const ALGS = ['RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512'] as const;

export const CustomSigningJwk = Type.Object(
  {
    kty: Type.Union([Type.Literal('EC'), Type.Literal('RSA')], { description: 'Key type' }),
    kid: Type.Optional(Type.String({ minLength: 1, maxLength: 128, pattern: NO_CONTROL_CHARACTERS, description: 'Key identifier' })),
    use: Type.Optional(Type.Literal('sig', { description: 'Key use' })),
    key_ops: Type.Optional(Type.Array(Type.Literal('verify'), { minItems: 1, maxItems: 1, description: 'Key operations' })),
    alg: Type.Optional(Type.Union(ALGS.map((a) => Type.Literal(a)), { description: 'Key algorithm' })),
    n: Type.Optional(B64('Key modulus', 1400)),
    e: Type.Optional(B64('Key exponent', 16)),
    crv: Type.Optional(Type.Union([Type.Literal('P-256'), Type.Literal('P-384'), Type.Literal('P-521')], { description: 'Curve' })),
    x: Type.Optional(B64('X coordinate', 128)),
    y: Type.Optional(B64('Y coordinate', 128)),
    x5u: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, pattern: '^https://', description: 'X.509 URL' })),
    x5c: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 8192, pattern: '^[A-Za-z0-9+/=]+$' }), { minItems: 1, maxItems: 5, description: 'X.509 certificate chain' })),
    x5t: Type.Optional(B64('X.509 certificate SHA-1 thumbprint', 64)),
    'x5t#S256': Type.Optional(B64('X.509 certificate SHA-256 thumbprint', 64)),
  },
  { additionalProperties: false, description: 'JWK representing a custom public signing key.' },
);
export type CustomSigningJwkBody = Static<typeof CustomSigningJwk>;

export const SetCustomSigningKeysBody = Type.Object(
  { keys: Type.Array(CustomSigningJwk, { minItems: 1, maxItems: MAX_CUSTOM_KEYS, description: 'An array of custom public signing keys.' }) },
  { additionalProperties: false, description: 'JWKS representing an array of custom public signing keys.' },
);
export type SetCustomSigningKeysBody = Static<typeof SetCustomSigningKeysBody>;

export const CustomSigningKeys = Type.Object(
  { keys: Type.Array(Type.Unsafe<StoredJwk>({ type: 'object', additionalProperties: true })) },
  { additionalProperties: false, description: 'JWKS representing an array of custom public signing keys.' },
);
