/**
 * User-block schemas, from the service's OpenAPI document
 * (`ListUserBlocksByIdentifierResponseContent`, `UserBlockIdentifier`).
 */
import { Type, type Static } from '@sinclair/typebox';

export const IdentifierQuery = Type.Object(
  {
    identifier: Type.String({ description: 'Should be any of a username, phone number, or email' }),
  },
  { additionalProperties: true },
);
export type IdentifierQuery = Static<typeof IdentifierQuery>;

export const ListQuery = Type.Object(
  {
    identifier: IdentifierQuery.properties.identifier,
    /**
     * Accepted and ignored: Gatehouse's brute-force protection is always on
     * and always blocks, so the answer is the same either way.
     */
    consider_brute_force_enablement: Type.Optional(
      Type.Boolean({ description: 'If true and Brute Force Protection is enabled and configured to block logins, will return a list of blocked IP addresses' }),
    ),
  },
  { additionalProperties: true },
);
export type ListQuery = Static<typeof ListQuery>;

export const UserBlockIdentifier = Type.Object({
  identifier: Type.String({ description: 'Identifier (should be any of an `email`, `username`, or `phone_number`)' }),
  ip: Type.String({ description: 'IP Address' }),
  connection: Type.Optional(Type.String({ description: 'Connection identifier' })),
});

export const ListUserBlocksByIdentifierResponse = Type.Object(
  {
    blocked_for: Type.Array(UserBlockIdentifier, { description: 'Array of identifier + IP address pairs' }),
  },
  { additionalProperties: false },
);
