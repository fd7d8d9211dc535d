import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServiceProcess } from '../../tests/support/service-process.js';
import { measure } from '../measure.js';
import { fromMeasurement, type Workload, type WorkloadResult } from '../workload.js';
import { creates } from './creates.js';

/** An OTLP/HTTP collector that takes every export and drops it, counting the requests. */
async function startDroppingCollector(): Promise<{ url: string; exports: () => number; close(): Promise<void> }> {
  let exports = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      exports += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports: () => exports, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Contract §18's cost of tracing: creates and reads against the bench's service (tracing off), then
 * against a second service process on the same database exporting every span over OTLP/HTTP
 * (protobuf) to a local collector, and the ratio of the two.
 */
export const tracingCost: Workload = {
  name: 'tracing-cost',
  async run(ctx) {
    const ids = ctx.data.busy.bookingIds;
    const read = () => ({ path: `/booking/v1/bookings/${ids[Math.floor(Math.random() * ids.length)]}` });
    const collector = await startDroppingCollector();
    const traced = await startServiceProcess(
      { ...ctx.serviceEnv, PORT: '0', LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
      ['--role', 'api'],
    );
    try {
      const results: WorkloadResult[] = [];
      const pairs = [
        { name: 'read one', method: 'GET' as const, next: read, expect: 200 },
        // Each side books its own year, so that neither meets the other's bookings.
        { name: 'create', method: 'POST' as const, next: creates(ctx.data.spread, ctx.futureMs + 2 * 365 * 86_400_000), expect: 201, onNext: creates(ctx.data.spread, ctx.futureMs + 3 * 365 * 86_400_000) },
      ];
      for (const { name, method, next, expect, onNext } of pairs) {
        const off = await ctx.http({ name: `${name}, tracing off`, method, next, expect });
        const traceOn = await measure(traced.url, ctx.token, { name: `${name}, tracing on`, connections: ctx.connections, seconds: ctx.seconds, method, next: onNext ?? next, expect });
        results.push(fromMeasurement(off), { ...fromMeasurement(traceOn), note: `${((traceOn.perSecond / off.perSecond - 1) * 100).toFixed(1)} % throughput with tracing on (${collector.exports()} exports received so far)` });
      }
      return results;
    } finally {
      await traced.stop();
      await collector.close();
    }
  },
};
