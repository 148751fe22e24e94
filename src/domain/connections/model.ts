/**
 * Connections, as stored and as the Management API returns them (the service's
 * `GetConnectionResponseContent` / `ConnectionForList`). The strategies
 * Gatehouse implements are those of ./strategies/.
 */
import type { ConnectionRow } from '../rows.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import { connectionStrategy } from './strategies/index.js';

export type { ConnectionRow } from '../rows.js';

export interface Connection {
  id: string;
  name: string;
  display_name?: string;
  strategy: string;
  options: Record<string, unknown>;
  is_domain_connection: boolean;
  /** Enterprise connections only (false unless set). */
  show_as_button?: boolean;
  realms: string[];
  metadata?: Record<string, string | null>;
  /** Only in the create/get/update responses (not in list items), per the document. */
  enabled_clients?: string[];
}

/** `con_` + 16 alphanumerics (management-api-wire-notes §3). */
export function newConnectionId(): string {
  return newPrefixedId('con', 16);
}

/** The API shape of a row; `display_name` and `metadata` appear only when set, as the service answers. */
export function connectionFromRow(row: ConnectionRow, enabledClients?: readonly string[]): Connection {
  const connection: Connection = {
    id: row.id,
    name: row.name,
    strategy: row.strategy,
    options: row.options,
    is_domain_connection: row.is_domain_connection === 1,
    ...(connectionStrategy(row.strategy)?.kind === 'enterprise' && { show_as_button: row.show_as_button === 1 }),
    realms: [...row.realms],
  };
  if (row.display_name !== null) connection.display_name = row.display_name;
  const metadata = row.metadata;
  if (Object.keys(metadata).length > 0) connection.metadata = metadata;
  if (enabledClients !== undefined) connection.enabled_clients = [...enabledClients];
  return connection;
}
