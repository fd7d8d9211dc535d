import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context } from '@opentelemetry/api';
import { contextOfEvent, traceparentHeader, traceparentMember } from './trace-context.js';

const tracer = trace.getTracer('workspace-booking');

/** A span of one event's delivery, in the trace of the request that wrote the event. */
export type DeliverySpan = {
  /** The traceparent header the delivery carries: the span's own, in the event's trace. */
  header: string | undefined;
  /** The span's context, for work done on its behalf (the outgoing request of a webhook). */
  context: Context;
  end(error?: string): void;
};

/**
 * Opens the span of a Kafka send or a webhook delivery as a child of the event's stored trace;
 * null when the event carries none (it was written untraced, or tracing is off).
 */
export function startDeliverySpan(name: string, traceparent: string | undefined, kind: 'producer' | 'client', attributes: Attributes): DeliverySpan | null {
  if (!traceparent) return null;
  const parent = contextOfEvent({ [traceparentMember]: traceparent });
  const span = tracer.startSpan(name, { kind: kind === 'producer' ? SpanKind.PRODUCER : SpanKind.CLIENT, attributes }, parent);
  const spanContext = trace.setSpan(parent, span);
  return {
    // Without an SDK the span is not recording and the header keeps the stored one: the same trace.
    header: traceparentHeader(spanContext) ?? traceparent,
    context: spanContext,
    end(error) {
      if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      span.end();
    },
  };
}

/** Runs `work` with the span's context active (so that instrumented calls inside are its children). */
export const inSpanContext = <T>(span: DeliverySpan | null, work: () => Promise<T>): Promise<T> => (span ? context.with(span.context, work) : work());
