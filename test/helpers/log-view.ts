/** A tenant log event as GET /api/v2/logs answers it (members without a value are left out). */
export interface LogView {
  log_id: string;
  date: string;
  type: string;
  description?: string;
  client_id?: string;
  client_name?: string;
  user_id?: string;
  user_name?: string;
  connection?: string;
  connection_id?: string;
  strategy?: string;
  strategy_type?: string;
  ip?: string;
  user_agent?: string;
  hostname?: string;
  audience?: string;
  scope?: string;
  details?: Record<string, unknown>;
}
