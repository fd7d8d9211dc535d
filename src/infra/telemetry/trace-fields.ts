import { trace } from '@opentelemetry/api';

/**
 * `trace_id` (and `span_id`) of the span running now, for a log line; nothing when nothing is
 * traced. A new object every time: pino merges the line's own fields into what the mixin answers.
 */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
