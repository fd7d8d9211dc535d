import { expect } from 'chai';
import { startDeliverySpan } from '../../../src/infra/telemetry/delivery-span.js';
import { currentTraceMetadata } from '../../../src/infra/telemetry/trace-context.js';
import { traceFields } from '../../../src/infra/telemetry/trace-fields.js';

/** Tracing off (no SDK in this process): nothing is added to events, logs or deliveries beyond what they carried. */
describe('trace context with tracing off', () => {
  it('adds nothing to an event\'s metadata or a log line', () => {
    expect(currentTraceMetadata()).to.deep.equal({});
    expect(traceFields()).to.deep.equal({});
  });

  it('opens no span for an event written untraced, and keeps a stored trace on its delivery', () => {
    expect(startDeliverySpan('x publish', undefined, 'producer', {})).to.equal(null);
    const stored = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const span = startDeliverySpan('x publish', stored, 'producer', {});
    expect(span?.header).to.equal(stored);
    span?.end();
  });
});
