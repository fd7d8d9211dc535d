import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';

const run = promisify(execFile);

/**
 * Tracing off, as a service process without OTEL_* variables runs: a fresh process that loads the
 * trace helpers and no SDK (this test runner's process has loaded libraries that may register their
 * own OpenTelemetry globals).
 */
async function inFreshProcess(): Promise<{ metadata: unknown; logFields: unknown; untraced: unknown; kept: unknown }> {
  const script = `
    const { currentTraceMetadata } = await import('./src/infra/telemetry/trace-context.ts');
    const { traceFields } = await import('./src/infra/telemetry/trace-fields.ts');
    const { startDeliverySpan } = await import('./src/infra/telemetry/delivery-span.ts');
    const stored = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const span = startDeliverySpan('x publish', stored, 'producer', {});
    span?.end();
    console.log(JSON.stringify({
      metadata: currentTraceMetadata(),
      logFields: traceFields(),
      untraced: startDeliverySpan('x publish', undefined, 'producer', {}),
      kept: span?.header,
    }));`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { PATH: process.env.PATH ?? '' } });
  return JSON.parse(stdout.trim().split('\n').at(-1)!);
}

describe('trace context with tracing off', function () {
  this.timeout(30_000);

  it('adds nothing to an event\'s metadata or a log line, opens no span for an untraced event, and keeps a stored trace on its delivery', async () => {
    const seen = await inFreshProcess();
    expect(seen.metadata).to.deep.equal({});
    expect(seen.logFields).to.deep.equal({});
    expect(seen.untraced).to.equal(null);
    expect(seen.kept).to.equal('00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
  });
});

describe('log lines with tracing off', () => {
  it('carry only their own fields: one line\'s fields never reach the next', async () => {
    const { createLogger } = await import('../../../src/infra/logger.js');
    const lines: string[] = [];
    const destination = { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream;
    const logger = createLogger('info', false, destination);
    logger.info({ slot: 3 }, 'first');
    logger.info('second');
    const second = JSON.parse(lines[1]!) as Record<string, unknown>;
    expect(second).to.not.have.property('slot');
    expect(second).to.not.have.property('trace_id');
  });
});
