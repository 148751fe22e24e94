/**
 * Tells every process that a tenant's configuration changed, so cached copies
 * are dropped: in-process always, across processes through Redis pub/sub when
 * REDIS_URL is set.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';

const CHANNEL = 'gatehouse:invalidate';

export type InvalidationListener = (tenantId: string) => void;

export class InvalidationBus {
  readonly #listeners: InvalidationListener[] = [];
  #subscriber: Redis | undefined;

  constructor(
    private readonly redis: Redis | undefined,
    private readonly logger: Logger,
  ) {
    if (redis) {
      // The subscription must survive reconnects and may be made before the connection is up.
      this.#subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
      this.#subscriber.on('error', (err) => logger.warn({ err }, 'redis subscriber error; cache invalidation is local only'));
      this.#subscriber.subscribe(CHANNEL).catch((err: unknown) => logger.warn({ err }, 'redis subscribe failed'));
      this.#subscriber.on('message', (_channel: string, tenantId: string) => this.#notify(tenantId));
    }
  }

  onInvalidate(listener: InvalidationListener): void {
    this.#listeners.push(listener);
  }

  /** The tenant's configuration changed: drop cached copies here and elsewhere. */
  invalidate(tenantId: string): void {
    this.#notify(tenantId);
    this.redis?.publish(CHANNEL, tenantId).catch((err: unknown) => this.logger.warn({ err }, 'redis publish failed'));
  }

  #notify(tenantId: string): void {
    for (const listener of this.#listeners) listener(tenantId);
  }

  close(): void {
    this.#subscriber?.disconnect();
  }
}
