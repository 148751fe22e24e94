/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): timestamps as ISO-8601 text in UTC.
 */
/** Device public keys (migration 0131). */
export interface DeviceCredentialRow {
  tenant_id: string;
  id: string;
  user_id: string;
  client_id: string;
  device_id: string;
  device_name: string;
  type: 'public_key';
  value: string;
  created_at: string;
}
