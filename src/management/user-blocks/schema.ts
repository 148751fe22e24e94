/**
 * User-block schemas, from the service's OpenAPI document
 * (`ListUserBlocksByIdentifierResponseContent`, `ListUserBlocksResponseContent`,
 * `UserBlockIdentifier`).
 */
import { Type } from '@sinclair/typebox';

export const IdentifierQuery = Type.Object(
  {
    identifier: Type.String({ description: 'Should be any of a username, phone number, or email' }),
  },
  { additionalProperties: true },
);

/**
 * Accepted and ignored: Gatehouse's brute-force protection is always on and
 * always blocks, so the answer is the same either way.
 */
const considerBruteForceEnablement = Type.Optional(
  Type.Boolean({ description: 'If true and Brute Force Protection is enabled and configured to block logins, will return a list of blocked IP addresses' }),
);

export const ListQuery = Type.Object(
  {
    identifier: IdentifierQuery.properties.identifier,
    consider_brute_force_enablement: considerBruteForceEnablement,
  },
  { additionalProperties: true },
);

export const UserBlocksQuery = Type.Object({ consider_brute_force_enablement: considerBruteForceEnablement }, { additionalProperties: true });

export function userBlocksParams(description: string) {
  return Type.Object({ id: Type.String({ minLength: 1, description }) });
}

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

export const ListUserBlocksResponse = Type.Object(
  {
    blocked_for: Type.Array(UserBlockIdentifier, { description: 'Array of identifier + IP address pairs' }),
  },
  { additionalProperties: false },
);
