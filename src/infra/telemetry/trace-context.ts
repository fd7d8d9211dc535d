import { context, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';

/** The member of an event's metadata that remembers the trace of the request that wrote it. */
export const traceparentMember = 'traceparent';

/**
 * The W3C trace context of the span running now, for an event's metadata; empty when nothing is
 * traced (tracing off: the API is a no-op and no span is ever active).
 */
export function currentTraceMetadata(): Record<string, string> {
  if (!trace.getActiveSpan()) return {};
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier[traceparentMember] ? { [traceparentMember]: carrier[traceparentMember] } : {};
}

/** The stored trace parent of an event, or undefined. */
export function traceparentOf(metadata: Record<string, unknown> | undefined): string | undefined {
  const value = metadata?.[traceparentMember];
  return typeof value === 'string' ? value : undefined;
}

/** The context an event was written in, for the spans of its delivery (root when it carries none). */
export function contextOfEvent(metadata: Record<string, unknown> | undefined): Context {
  const traceparent = traceparentOf(metadata);
  return traceparent ? propagation.extract(ROOT_CONTEXT, { [traceparentMember]: traceparent }) : ROOT_CONTEXT;
}

/** The traceparent header of a span's context, for a Kafka record or a webhook request. */
export function traceparentHeader(spanContext: Context): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(spanContext, carrier);
  return carrier[traceparentMember];
}
