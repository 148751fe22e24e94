/**
 * The rows of event streams' tables as their store reads and writes them
 * (migration 0190): timestamps as ISO-8601 text in UTC, JSON columns as typed
 * values (src/storage/json-columns.ts).
 */

/** How a webhook authenticates to its endpoint; the secret itself is sealed apart (`authorization_enc`). */
export type EventStreamWebhookAuthorization =
  | { method: 'bearer' }
  | { method: 'basic'; username: string }
  | { method: 'custom_header'; header_key: string };

export interface EventStreamDestination {
  type: 'webhook';
  configuration: { webhook_endpoint: string; webhook_authorization: EventStreamWebhookAuthorization };
}

export interface EventStreamRow {
  tenant_id: string;
  /** `est_…` */
  id: string;
  name: string;
  status: 'enabled' | 'disabled';
  /** The event types the stream takes. */
  subscriptions: string[];
  destination: EventStreamDestination;
  /** The authorization's secret (token, password or header value), sealed; null when none was given. */
  authorization_enc: string | null;
  created_at: string;
  updated_at: string;
}

/** An event as it goes out (CloudEvents 1.0, JSON format), with the service's extension attributes. */
export interface CloudEvent {
  specversion: '1.0';
  /** `evt_…` */
  id: string;
  type: string;
  /** `urn:auth0:<tenant's domain>` */
  source: string;
  time: string;
  data: { object: Record<string, unknown> };
  /** The tenant's name. */
  a0tenant: string;
  /** The stream it is sent on. */
  a0stream: string;
  /** `test` on a test event (POST /event-streams/{id}/test); absent otherwise. */
  a0purpose?: 'test';
}

/** A CloudEvent as the tenant's event log keeps it: without `a0stream`, which each reader adds (migration 0261). */
export type LoggedCloudEvent = Omit<CloudEvent, 'a0stream'>;

/** One event of the tenant's event log (GET /api/v2/events). */
export interface TenantEventRow {
  tenant_id: string;
  /** The tenant's position of the event: 1, 2, 3 … in commit order, without gaps. */
  seq: number;
  /** `evt_…` */
  id: string;
  type: string;
  event: LoggedCloudEvent;
  created_at: string;
  /** When the log may drop it (created_at + EVENT_LOG_RETENTION_MS). */
  expires_at: string;
}

export interface EventDeliveryAttempt {
  status: 'failed';
  timestamp: string;
  error_message: string;
}

/** One event queued for one stream: the outbox row. */
export interface EventDeliveryRow {
  /** `del_…` */
  id: string;
  tenant_id: string;
  stream_id: string;
  event_id: string;
  event_type: string;
  event: CloudEvent;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  attempt_log: EventDeliveryAttempt[];
  /** When the next attempt is due (a claimed row's: when its lease ends). */
  next_attempt_at: string;
  created_at: string;
  delivered_at: string | null;
}
