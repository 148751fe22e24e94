/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/**
 * Tenant log events (migration 0065), in the service's Log shape. `log_id`
 * sorts as the events were recorded (src/domain/logs/log-id.ts); `date` is
 * ISO-8601. `details` never holds a secret (src/domain/logs/events.ts).
 */
export interface TenantLogRow {
  tenant_id: string;
  log_id: string;
  date: string;
  type: string;
  description: string | null;
  client_id: string | null;
  client_name: string | null;
  ip: string | null;
  user_agent: string | null;
  user_id: string | null;
  user_name: string | null;
  connection: string | null;
  connection_id: string | null;
  strategy: string | null;
  strategy_type: string | null;
  audience: string | null;
  scope: string | null;
  hostname: string | null;
  details: Record<string, unknown> | null;
}
