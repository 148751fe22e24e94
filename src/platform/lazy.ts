/**
 * Packages only some processes or requests need, loaded on first use
 * instead of at start-up: each one loaded costs start time and resident
 * memory for as long as the process lives (the PostgreSQL driver of a
 * SQLite install, the Redis client without REDIS_URL, SAML's XML stack, the
 * X.509 toolkit that only makes certificates). Synchronous (CommonJS
 * `require`), so a caller keeps its signature.
 */
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);

/** A getter for package `id`, required the first time it is called. */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= requireHere(id) as T);
}
