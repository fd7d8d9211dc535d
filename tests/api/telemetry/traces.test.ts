import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import { seedZone } from '../../support/device-records.js';
import { kafkaAvailability, startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { consumeTopic, createTopic } from '../../support/kafka-topic.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../support/otlp-receiver.js';
import { startServiceProcess, type ServiceProcess } from '../../support/service-process.js';
import { mintToken, platformKey } from '../../support/test-keys.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { waitFor } from '../../workers/worker-test-kit.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const incoming = `00-${traceId}-00f067aa0ba902b7-01`;

/**
 * Contract §18: one trace from the request to the Kafka record and the webhook, received by a
 * local OTLP/HTTP collector from a service process started with the standard OTEL_* variables.
 */
(kafkaAvailability() && process.env.DB_HOST ? describe : describe.skip)('OpenTelemetry traces follow a booking from the request to Kafka and the webhook', function () {
  this.timeout(180_000);
  let database: TestDatabase;
  let broker: KafkaBroker;
  let collector: OtlpReceiver;
  let service: ServiceProcess;
  let hooks: http.Server;
  const hookHeaders: http.IncomingHttpHeaders[] = [];
  let kafka: Kafka;
  let topic: string;
  const workspace = '7d3c6a52-1f0e-4b7a-9a51-0c5f3e2d1b10';

  before(async function () {
    this.timeout(150_000);
    database = await createTestDatabase();
    broker = await startKafkaBroker();
    kafka = new Kafka({ clientId: 'trace-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
    topic = await createTopic(kafka, 'traced');
    collector = await startOtlpReceiver();
    hooks = http.createServer((req, res) => {
      hookHeaders.push(req.headers);
      req.resume();
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    await seedZone(database.db, workspace, 'traced-room');
    service = await startServiceProcess({
      ...database.env,
      APP_ENV: 'production',
      PLATFORM_AUTH_ENDPOINT: platformKey.publicKey,
      DATA_DIR: `/tmp/booking-test-${process.pid}-traces`,
      WEB_CONCURRENCY: '1',
      KAFKA_BROKERS: broker.brokers.join(','),
      KAFKA_TOPIC: topic,
      WEBHOOK_ENDPOINT: `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`,
      WEBHOOK_SECRET: 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXR0ZXN0c2VjcmV0',
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  });
  after(async () => {
    await service?.stop();
    await new Promise((resolve) => hooks?.close(resolve));
    await collector?.close();
    await broker?.stop();
    await database?.destroy();
  });

  it('continues the incoming traceparent through the request, its SQL, the Kafka send and the webhook', async () => {
    const token = mintToken({ level: 'LV2', workspace, sub: 'tracer' });
    const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${service.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body) });
    expect((await call('/booking/v1/resources', { resourceType: 'zone', resourceId: 'traced-room' })).status).to.equal(201);
    const start = new Date(Date.now() + 86_400_000);
    start.setUTCMinutes(0, 0, 0);
    const booked = await call(
      '/booking/v1/bookings',
      { resourceType: 'zone', resourceId: 'traced-room', title: 'Traced', startTime: start.toISOString(), endTime: new Date(start.getTime() + 3_600_000).toISOString() },
      { traceparent: incoming },
    );
    expect(booked.status).to.equal(201);
    const bookingId = ((await booked.json()) as { id: string }).id;

    const records = await consumeTopic(kafka, topic, 2);
    const record = records.find((r) => r.value.event === 'booking.create' && r.value.data.id === bookingId);
    expect(record, 'the booking.create record').to.not.equal(undefined);
    expect(record!.headers.traceparent).to.match(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    await waitFor(() => hookHeaders.some((h) => String(h.traceparent ?? '').includes(traceId)), { timeoutMs: 30_000, what: 'the webhook with the trace' });

    await waitFor(() => collector.spans.some((s) => s.traceId === traceId && s.kind === 4), { timeoutMs: 30_000, what: 'the Kafka send span' });
    const trace = collector.spans.filter((s) => s.traceId === traceId);
    const server = trace.find((s) => s.kind === 2 && s.parentSpanId === '00f067aa0ba902b7');
    expect(server?.name).to.equal('POST /booking/v1/bookings');
    expect(trace.some((s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql'), 'a database span').to.equal(true);
    const send = trace.find((s) => s.kind === 4 && s.name === `${topic} publish`)!;
    expect(record!.headers.traceparent).to.include(send.spanId);
    // The send hangs under the request's span, through the event that request wrote.
    const ids = new Set(trace.map((s) => s.spanId));
    let parent = send.parentSpanId;
    while (parent && parent !== server!.spanId && ids.has(parent)) parent = trace.find((s) => s.spanId === parent)!.parentSpanId;
    expect(parent).to.equal(server!.spanId);
    await waitFor(() => collector.spans.some((s) => s.traceId === traceId && s.name === 'webhook booking.create'), { timeoutMs: 30_000, what: 'the webhook span' });
    expect(service.output()).to.include(`"trace_id":"${traceId}"`);
  });
});
