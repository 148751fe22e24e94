/**
 * Users' consent grants, as stored and as the Management API returns them
 * (the service's `UserGrant` schema: `{id, clientID, user_id, audience, scope}`,
 * the client's id spelled `clientID`).
 */
import { newPrefixedId } from '../../platform/crypto/ids.js';
import type { ConsentGrantRow } from '../rows.js';

export type { ConsentGrantRow } from '../rows.js';

export interface ConsentGrant {
  id: string;
  clientID: string;
  user_id: string;
  audience: string;
  scope: string[];
}

/** `cgr_` + 16 alphanumerics. */
export function newConsentGrantId(): string {
  return newPrefixedId('cgr', 16);
}

export function consentGrantFromRow(row: ConsentGrantRow): ConsentGrant {
  return { id: row.id, clientID: row.client_id, user_id: row.user_id, audience: row.audience, scope: [...row.scope] };
}
