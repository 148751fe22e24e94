/** What the server sees of tracing (./tracing.ts), whether or not the SDK is loaded. */

/** Attributes put on a request's span: strings only, and never a value the client chose freely. */
export type SpanAttributes = Readonly<Record<string, string>>;

export interface Tracing {
  /** Adds attributes to the span of the request under way (the HTTP server span); `name` renames it. */
  annotate(attributes: SpanAttributes, name?: string): void;
  /** Sends the spans not yet sent and stops. */
  shutdown(): Promise<void>;
}
