import { expect } from 'chai';
import type { ProducerRecord } from 'kafkajs';
import sinon from 'sinon';
import type { EventStore } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../../../src/infra/logger.js';
import { createInProcessLock } from '../../../src/workers/in-process-lock.js';
import { kafkaRelay, type KafkaSender } from '../../../src/workers/kafka/kafka-relay.js';
import { processBatch } from '../../../src/workers/process-batch.js';
import { readCheckpoint } from '../../../src/infra/event-store/processor-checkpoint.js';
import { startProcessor } from '../../../src/workers/start-processor.js';
import { startWorkers } from '../../../src/workers/start-workers.js';
import { bookingBody, registerZone, setClock } from '../../api/booking/booking-api.js';
import { assertPublishedEvent } from '../../support/published-event-schemas.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { startTestServer } from '../../support/test-server.js';
import { bookingCreated, sampleBooking } from '../../workers/booking-event-fixture.js';
import { checkpointPlaced, fastWorkerOptions, logSettled, waitFor } from '../../workers/worker-test-kit.js';

type StubbedProducer = { [K in keyof KafkaSender]: sinon.SinonStub };

const stubProducer = (): StubbedProducer => ({
  connect: sinon.stub().resolves(),
  send: sinon.stub().resolves([]),
  disconnect: sinon.stub().resolves(),
});

const sentRecords = (producer: StubbedProducer) => producer.send.getCalls().map((call) => call.args[0] as ProducerRecord);
const idsOf = (record: ProducerRecord) => record.messages.map((m) => (m.headers as Record<string, string>).ce_id);

describe('Kafka relay', () => {
  let database: TestDatabase;
  let eventStore: EventStore;
  const deps = () => ({ db: database.db, eventStore });

  const appendBooking = async (overrides = {}) => {
    const booking = sampleBooking(overrides);
    const [recorded] = (await eventStore.appendToStream(`resource-${booking.bookableResourceId}`, [bookingCreated(booking)], 'any')).events;
    return recorded!;
  };

  beforeEach(async () => {
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
    // Enabled on the empty log: every event appended by a test is new to it.
    await readCheckpoint(database.db, 'kafka-relay', 'log-end');
  });
  afterEach(() => database.destroy());

  it('publishes booking events to the topic, keyed by resourceId, with CloudEvents headers and the envelope as value', async () => {
    const created = await appendBooking({ resourceId: 'zone-7' });
    await eventStore.appendToStream('device-x', [{ type: 'DeviceUpdated', data: { workspace: null, id: 'x' } }], 'any');
    await logSettled(database.db, eventStore);
    const producer = stubProducer();
    await processBatch(deps(), kafkaRelay(producer, 'booking.events'), 100);

    expect(producer.connect.callCount).to.equal(1);
    expect(producer.send.callCount).to.equal(1);
    const [record] = sentRecords(producer);
    expect(record).to.include({ topic: 'booking.events', acks: -1 });
    const [message] = record!.messages;
    expect(message!.key).to.equal('zone-7');
    expect(message!.headers).to.deep.equal({
      ce_specversion: '1.0',
      ce_id: created.id,
      ce_type: 'booking.create',
      ce_source: '/booking/v1',
      ce_time: (created.data as { at: string }).at,
      'content-type': 'application/json',
    });
    const envelope = JSON.parse(String(message!.value));
    assertPublishedEvent(envelope);
    expect(envelope).to.include({ id: created.id, event: 'booking.create', position: created.globalPosition });
    expect(envelope.data).to.include({ resourceId: 'zone-7', status: 'confirmed' });
  });

  it('moves its checkpoint only after the broker acknowledged', async () => {
    await appendBooking();
    await logSettled(database.db, eventStore);
    const producer = stubProducer();
    let acknowledge!: () => void;
    producer.send.returns(new Promise<never[]>((resolve) => (acknowledge = () => resolve([]))));
    const batch = processBatch(deps(), kafkaRelay(producer, 'booking.events'), 100);
    await waitFor(() => producer.send.called, { what: 'the send' });
    expect(await readCheckpoint(database.db, 'kafka-relay')).to.deep.equal({ transactionId: '0', globalPosition: 0 });
    acknowledge();
    await batch;
    expect((await readCheckpoint(database.db, 'kafka-relay')).globalPosition).to.be.greaterThan(0);
  });

  it('publishes a round of events in one request, in log order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await appendBooking()).id);
    await logSettled(database.db, eventStore);
    const producer = stubProducer();
    await processBatch(deps(), kafkaRelay(producer, 'booking.events'), 100);
    expect(producer.send.callCount).to.equal(1);
    expect(idsOf(sentRecords(producer)[0]!)).to.deep.equal(ids);
  });

  it('retries with backoff while the broker is down and loses no event, in log order', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await appendBooking()).id);
    await logSettled(database.db, eventStore);
    const producer = stubProducer();
    producer.connect.onFirstCall().rejects(new Error('connect ECONNREFUSED'));
    producer.send.onCall(0).rejects(new Error('broker not available'));
    producer.send.onCall(1).rejects(new Error('broker not available'));
    const loop = startProcessor(
      { ...deps(), logger: createLogger('silent'), lock: createInProcessLock(database, 'kafka-relay') },
      kafkaRelay(producer, 'booking.events'),
      { batchSize: 100, pollIntervalMs: 10, standbyRetryMs: 10, backoff: { initialMs: 10, maxMs: 40 } },
    );
    try {
      await waitFor(() => producer.send.callCount >= 3, { what: 'every event after the failures' });
    } finally {
      await loop.stop();
    }
    const acknowledged = sentRecords(producer).slice(2).flatMap(idsOf);
    expect(acknowledged).to.deep.equal(ids);
    expect(producer.connect.callCount).to.be.greaterThan(2);
  });

  it('runs in the workers when KAFKA_BROKERS is set, and disconnects on stop', async () => {
    const producer = stubProducer();
    const server = await startTestServer({ KAFKA_BROKERS: 'broker.invalid:9092', KAFKA_TOPIC: 'bookings-test' });
    try {
      await registerZone(server, 'zone-k');
      setClock(server, '2031-05-31T08:00:00Z');
      const workers = startWorkers(server.services, { ...fastWorkerOptions, kafkaProducer: producer });
      await checkpointPlaced(server.services.db, 'kafka-relay');
      const res = await server.request('POST', '/booking/v1/bookings', { body: bookingBody('zone-k', '2031-06-01T09:00:00Z', '2031-06-01T10:00:00Z') });
      expect(res.status).to.equal(201);
      await waitFor(() => sentRecords(producer).some((r) => r.messages.some((m) => JSON.parse(String(m.value)).data.id === res.body.id)), { what: 'the Kafka message' });
      expect(sentRecords(producer)[0]).to.include({ topic: 'bookings-test' });
      for (const message of sentRecords(producer).flatMap((r) => r.messages)) assertPublishedEvent(JSON.parse(String(message.value)));
      await workers.stop();
      expect(producer.disconnect.callCount).to.equal(1);
    } finally {
      await server.stop();
    }
  });
});
