/**
 * The OpenTelemetry SDK with the HTTP, PostgreSQL and Redis instrumentations
 * and the OTLP/HTTP exporter (JSON), loaded by ./tracing.ts only when tracing
 * is on. Settings are OpenTelemetry's own environment variables, read by the
 * SDK (OTEL_EXPORTER_OTLP_*, OTEL_TRACES_SAMPLER, OTEL_BSP_*,
 * OTEL_RESOURCE_ATTRIBUTES, …); the service is "gatehouse" unless
 * OTEL_SERVICE_NAME says otherwise. Only traces: no metrics or logs over OTLP
 * (Gatehouse's metrics are Prometheus', its logs pino's).
 *
 * What a span may carry is decided in one place, the exporter below, whatever
 * an instrumentation records: no query string (authorization codes, tokens and
 * state travel there), no header, no exception or status message; PostgreSQL
 * statements are recorded without their bound values (the instrumentation's
 * default), Redis commands by name only.
 */
import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { NodeSDK, type core, type tracing } from '@opentelemetry/sdk-node';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { SpanAttributes, Tracing } from './types.js';

/** Attributes holding a URL or its target: kept without the query string. */
const URL_ATTRIBUTES = new Set(['url.full', 'http.url', 'http.target', 'url.original']);

/** Attributes never sent: the query string itself and any header. */
const dropped = (key: string): boolean =>
  key === 'url.query' || key.startsWith('http.request.header.') || key.startsWith('http.response.header.') || key === 'exception.message' || key === 'exception.stacktrace';

const withoutQuery = (value: string): string => {
  const end = value.search(/[?#]/);
  return end < 0 ? value : value.slice(0, end);
};

type ReadableSpan = tracing.ReadableSpan;
type Attributes = ReadableSpan['attributes'];

export function redactAttributes(attributes: Attributes): Attributes {
  const kept: Record<string, Attributes[string]> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (dropped(key)) continue;
    kept[key] = URL_ATTRIBUTES.has(key) && typeof value === 'string' ? withoutQuery(value) : value;
  }
  return kept;
}

/** The span as exported: its attributes and its events' attributes redacted, no status message. */
function redacted(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    attributes: { value: redactAttributes(span.attributes) },
    events: { value: span.events.map((event) => ({ ...event, ...(event.attributes && { attributes: redactAttributes(event.attributes) }) })) },
    status: { value: { code: span.status.code } },
  }) as ReadableSpan;
}

/** An exporter that redacts every span before `inner` sees it. */
class RedactingExporter implements tracing.SpanExporter {
  constructor(private readonly inner: tracing.SpanExporter) {}
  export(spans: ReadableSpan[], done: (result: core.ExportResult) => void): void {
    this.inner.export(spans.map(redacted), done);
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

export function startSdk(env: NodeJS.ProcessEnv): Tracing {
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || 'gatehouse',
    traceExporter: new RedactingExporter(new OTLPTraceExporter()),
    // Traces only.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      // No header is recorded (headersToSpanAttributes stays empty); the query string is removed by the exporter.
      new HttpInstrumentation(),
      // Queries and Redis commands inside a request, not the background rounds (jobs, deliveries) every second.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
      new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    ],
  });
  sdk.start();
  // The server's own bundle imported node:http and node:https before the SDK started (as ES modules, which
  // the require hooks do not see): requiring them now applies the instrumentation to their shared exports,
  // and syncBuiltinESMExports gives the ES modules' named exports the instrumented functions.
  const requireHere = createRequire(import.meta.url);
  requireHere('node:http');
  requireHere('node:https');
  syncBuiltinESMExports();
  return {
    annotate(attributes: SpanAttributes, name?: string) {
      const span = trace.getActiveSpan();
      if (!span) return;
      span.setAttributes(attributes);
      if (name !== undefined) span.updateName(name);
    },
    shutdown: () => sdk.shutdown(),
  };
}
