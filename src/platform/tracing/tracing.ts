/**
 * Traces over OpenTelemetry, on only when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 * This module imports nothing of OpenTelemetry: ./sdk.ts, which does, is
 * imported here only when tracing is on (and the OpenTelemetry packages stay
 * in node_modules, scripts/build-server.mjs), so a default start loads none of
 * it. Start it before anything requires pg, ioredis or http's outgoing side:
 * the instrumentations hook `require` (pg and ioredis are required on first
 * use, src/platform/lazy.ts).
 */
import type { Tracing } from './types.js';

export type { SpanAttributes, Tracing } from './types.js';


/** Whether the environment asks for traces: an OTLP endpoint, and the SDK not disabled (OTEL_SDK_DISABLED). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}

/** The tracer when the environment asks for traces (see above); otherwise undefined, and nothing loaded. */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { startSdk } = await import('./sdk.js');
  return startSdk(env);
}
