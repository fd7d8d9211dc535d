import { expect } from 'chai';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { KafkaSender } from '../../src/workers/kafka/kafka-relay.js';
import { startWorkers, type RunningWorkers } from '../../src/workers/start-workers.js';
import { postgresServer } from '../support/scratch-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fastWorkerOptions, waitFor } from '../workers/worker-test-kit.js';
import { bookingBody, registerZone } from './booking/booking-api.js';

const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

/** A broker that refuses every message until `up` is set. */
function switchableBroker() {
  const broker = { up: false, sender: undefined as unknown as KafkaSender };
  broker.sender = {
    connect: async () => undefined,
    disconnect: async () => undefined,
    send: async () => {
      if (!broker.up) throw new Error('broker unavailable');
      return [];
    },
  } as unknown as KafkaSender;
  return broker;
}

describe('health of the workers', () => {
  let server: TestServer;
  let workers: RunningWorkers | undefined;
  afterEach(async () => {
    await workers?.stop();
    workers = undefined;
    await server?.stop();
  });

  it('has no workers part in a process without workers', async () => {
    // With PROJECTIONS=async every process runs the projections runner (the next test).
    server = await startTestServer({ PROJECTIONS: 'inline' });
    // The database check gives up after 2 s: a starved test machine may need a second try.
    const health = await waitFor(async () => {
      const res = await server.request('GET', '/booking/v1/health', { token: null });
      return res.status === 200 ? res : undefined;
    }, { what: 'health 200' });
    expect(health.body).to.deep.equal({ status: 'ok', info: { database: { status: 'up' } }, error: null, details: { database: { status: 'up' } } });
  });

  it('reports each processor position and lag, and answers 503 once one is behind without moving for 60 s', async function () {
    this.timeout(30_000);
    server = await startTestServer({ KAFKA_BROKERS: 'broker.invalid:9092' });
    const broker = switchableBroker();
    workers = startWorkers(server.services, { ...fastWorkerOptions, kafkaProducer: broker.sender });
    await registerZone(server, 'health-zone');
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody('health-zone', inHours(30), inHours(31)) })).status).to.equal(201);

    const health = () => server.request('GET', '/booking/v1/health', { token: null });
    const behind = await waitFor(
      async () => {
        const res = await health();
        return res.body.info.workers?.processors['device-deletions']?.lagEvents === 0 && res.body.info.workers.processors['kafka-relay'].lagEvents > 0 ? res : undefined;
      },
      { what: 'the kafka relay to fall behind while device deletions keep up' },
    );
    expect(behind.status).to.equal(200);
    expect(behind.body.info.workers.status).to.equal('up');
    expect(behind.body.info.workers.processors['kafka-relay']).to.have.all.keys('position', 'lagEvents', 'active');
    expect(behind.body.info.workers.processors['kafka-relay'].active).to.equal(true);

    const realNow = server.services.now;
    server.services.now = () => realNow().add({ seconds: 61 });
    const stalled = await health();
    expect(stalled.status).to.equal(503);
    expect(stalled.body.status).to.equal('error');
    expect(stalled.body.info.workers.status).to.equal('down');
    expect(stalled.body.error.workers.status).to.equal('down');
    expect(stalled.body.info.database).to.deep.equal({ status: 'up' });

    broker.up = true;
    server.services.now = () => Temporal.Now.instant().add({ seconds: 122 });
    await waitFor(async () => (await health()).status === 200, { what: 'health 200 once the relay caught up' });
    expect((await health()).body.info.workers.processors['kafka-relay'].lagEvents).to.equal(0);
  });
});

describe('health and metrics of the projections runner (PROJECTIONS=async)', () => {
  let server: TestServer;
  afterEach(() => server?.stop());

  const health = () => server.request('GET', '/booking/v1/health', { token: null });
  /** The global position of the last event in the log. */
  const lastPosition = async () => {
    const row = await server.database.db.selectFrom('events').select((eb) => eb.fn.max('global_position').as('last')).executeTakeFirstOrThrow();
    return Number(row.last);
  };

  it('reports the runner in a process without other workers, with its position and lag, in health and metrics', async () => {
    server = await startTestServer({ PROJECTIONS: 'async' });
    await registerZone(server, 'runner-zone');
    expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody('runner-zone', inHours(30), inHours(31)) })).status).to.equal(201);
    const position = await lastPosition();

    // The database check gives up after 2 s: a starved test machine may need a second try.
    const res = await waitFor(async () => {
      const answer = await health();
      return answer.status === 200 ? answer : undefined;
    }, { what: 'health 200' });
    expect(res.body.info.workers).to.deep.equal({ status: 'up', processors: { projections: { position, lagEvents: 0, active: true } } });

    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).to.match(/^processor_lag_events\{processor="projections"\} 0$/m);
    expect(text).to.include(`processor_position{processor="projections"} ${position}\n`);
  });

  // On the embedded database, one connection: nothing can hold the runner back.
  (postgresServer ? it : it.skip)('answers 503 once the runner is behind without moving for 60 s, and 200 once it caught up', async function () {
    this.timeout(30_000);
    server = await startTestServer({ PROJECTIONS: 'async', PROJECTION_WAIT_MS: '300' });
    await registerZone(server, 'stalled-zone');
    const realNow = server.services.now;
    // A transaction holding the runner's checkpoint row keeps it from committing any batch.
    await server.database.db.transaction().execute(async (trx) => {
      await sql`select 1 from processor_checkpoints where name = 'projections' for update`.execute(trx);
      // The append is kept; its answer waits for the read models in vain.
      expect((await server.request('POST', '/booking/v1/bookings', { body: bookingBody('stalled-zone', inHours(30), inHours(31)) })).status).to.equal(503);
      const behind = await health();
      expect(behind.status).to.equal(200);
      expect(behind.body.info.workers.status).to.equal('up');
      expect(behind.body.info.workers.processors.projections.lagEvents).to.be.greaterThan(0);

      server.services.now = () => realNow().add({ seconds: 61 });
      const stalled = await health();
      expect(stalled.status).to.equal(503);
      expect(stalled.body.error.workers.status).to.equal('down');
      expect(stalled.body.info.workers.processors.projections).to.deep.equal(behind.body.info.workers.processors.projections);
      expect(stalled.body.info.database).to.deep.equal({ status: 'up' });
    });

    server.services.now = () => Temporal.Now.instant().add({ seconds: 122 });
    const caughtUp = await waitFor(async () => {
      const res = await health();
      return res.status === 200 ? res : undefined;
    }, { what: 'health 200 once the runner caught up' });
    expect(caughtUp.body.info.workers.processors.projections).to.deep.equal({ position: await lastPosition(), lagEvents: 0, active: true });
  });
});

describe('GET /metrics', () => {
  let server: TestServer;
  let workers: RunningWorkers | undefined;
  afterEach(async () => {
    await workers?.stop();
    workers = undefined;
    await server?.stop();
  });

  it('answers the Prometheus text format without a token: process, HTTP, events, lag, webhooks and pool', async () => {
    server = await startTestServer({ WEBHOOK_ENDPOINT: 'http://127.0.0.1:9/hooks', WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    workers = startWorkers(server.services, fastWorkerOptions);
    await registerZone(server, 'metrics-zone');
    const created = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('metrics-zone', inHours(30), inHours(31)) });
    expect(created.status).to.equal(201);
    expect((await server.request('GET', `/booking/v1/bookings/${created.body.id}`)).status).to.equal(200);
    await waitFor(async () => (await server.database.db.selectFrom('webhook_deliveries').select('id').execute()).length > 0, { what: 'a queued webhook' });

    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).to.match(/^process_cpu_user_seconds_total \d/m);
    expect(text).to.match(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).to.match(/^http_request_duration_seconds_count\{method="POST",route="\/booking\/v1\/bookings",status_code="201"\} 1$/m);
    expect(text).to.match(/^http_request_duration_seconds_count\{method="GET",route="\/booking\/v1\/bookings\/:id",status_code="200"\} 1$/m);
    expect(text).to.match(/^events_appended_total\{type="BookingCreated"\} 1$/m);
    expect(text).to.match(/^processor_lag_events\{processor="webhook-relay"\} \d+$/m);
    expect(text).to.match(/^webhook_queue_depth [1-9]\d*$/m);
    expect(text).to.match(/^# TYPE webhook_delivery_latency_seconds histogram$/m);
    if (server.database.isServer) expect(text).to.match(/^db_pool_connections\{state="total"\} [1-9]\d*$/m);
  });

  it('is off with METRICS=off', async () => {
    server = await startTestServer({ METRICS: 'off' });
    expect((await fetch(`${server.url}/metrics`)).status).to.equal(404);
  });
});
