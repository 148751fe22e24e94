/**
 * Users' consent grants, as stored and as the Management API returns them
 * (the service's `UserGrant` schema: `{id, clientID, user_id, audience, scope}`,
 * the client's id spelled `clientID`).
 */
import { newPrefixedId } from '../../platform/crypto/ids.js';
import type { ConsentGrantRow } from '../rows.js';

export type UserGrantRow = ConsentGrantRow;

export interface UserGrant {
  id: string;
  clientID: string;
  user_id: string;
  audience: string;
  scope: string[];
}

/** `cgr_` + 16 alphanumerics. */
export function newUserGrantId(): string {
  return newPrefixedId('cgr', 16);
}

export function grantScopes(row: Pick<UserGrantRow, 'scope'>): string[] {
  return JSON.parse(row.scope) as string[];
}

export function userGrantFromRow(row: UserGrantRow): UserGrant {
  return { id: row.id, clientID: row.client_id, user_id: row.user_id, audience: row.audience, scope: grantScopes(row) };
}
