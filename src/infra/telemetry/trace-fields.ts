import { trace } from '@opentelemetry/api';

const none = {};

/** `trace_id` (and `span_id`) of the span running now, for a log line; nothing when nothing is traced. */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return none;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
