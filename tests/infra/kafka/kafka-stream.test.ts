import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Kafka, logLevel } from 'kafkajs';
import type { EventStore, RecordedEvent } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { createKafkaProducer } from '../../../src/infra/kafka/create-kafka-producer.js';
import { createLogger } from '../../../src/infra/logger.js';
import { createInProcessLock } from '../../../src/workers/in-process-lock.js';
import { kafkaRelay, type KafkaSender } from '../../../src/workers/kafka/kafka-relay.js';
import { readCheckpoint } from '../../../src/infra/event-store/processor-checkpoint.js';
import { startProcessor } from '../../../src/workers/start-processor.js';
import { kafkaAvailability, startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { consumeTopic, createTopic, type ReceivedMessage } from '../../support/kafka-topic.js';
import { assertPublishedEvent } from '../../support/published-event-schemas.js';
import { postgresServer } from '../../support/scratch-database.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { runReplay } from '../../scripts/run-replay.js';
import { appendPublishedHistory } from '../../scripts/append-published-history.js';
import { bookingCreated, sampleBooking } from '../../workers/booking-event-fixture.js';
import { waitFor } from '../../workers/worker-test-kit.js';

const published = (events: RecordedEvent[]) => events.filter((e) => e.type !== 'ZoneUpdated');

(kafkaAvailability() ? describe : describe.skip)('the event stream on a real Kafka broker (contract §8, §14)', function () {
  this.timeout(180_000);
  let broker: KafkaBroker;
  let kafka: Kafka;
  let database: TestDatabase;
  let eventStore: EventStore;
  let topic: string;

  /** Everything on the topic from the beginning, once `count` messages arrived; every value checked against the AsyncAPI schemas. */
  const consumeAll = async (count: number): Promise<ReceivedMessage[]> => {
    const received = await consumeTopic(kafka, topic, count);
    received.forEach((m) => assertPublishedEvent(m.value));
    return received;
  };

  /** Runs the relay as the worker does (retries with backoff) until its checkpoint passes `last`. */
  const relayUntil = async (producer: KafkaSender, last: RecordedEvent, midRun?: () => Promise<void>) => {
    const loop = startProcessor(
      { db: database.db, eventStore, logger: createLogger('silent'), lock: createInProcessLock(database, 'kafka-relay') },
      kafkaRelay(producer, topic),
      { batchSize: 10, pollIntervalMs: 20, standbyRetryMs: 20, backoff: { initialMs: 50, maxMs: 500 } },
    );
    try {
      await midRun?.();
      await waitFor(async () => (await readCheckpoint(database.db, 'kafka-relay')).globalPosition >= last.globalPosition, {
        timeoutMs: 120_000,
        what: 'the relay to pass the last event',
      });
    } finally {
      await loop.stop();
    }
  };

  before(async function () {
    this.timeout(120_000);
    broker = await startKafkaBroker();
    kafka = new Kafka({ clientId: 'booking-stream-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  });
  after(async () => {
    await broker?.stop();
  });
  beforeEach(async () => {
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
    // Enabled on the empty log: every event a test appends is new to the relay.
    await readCheckpoint(database.db, 'kafka-relay', 'log-end');
    topic = await createTopic(kafka, 'booking-stream');
  });
  afterEach(() => database?.destroy());

  it("carries booking, resource and zone events, keyed by the zone or device id, each resource's in log order, with CloudEvents headers", async () => {
    const history = published(await appendPublishedHistory(eventStore, randomUUID()));
    const producer = createKafkaProducer(broker.brokers, createLogger('silent'));
    await relayUntil(producer, history.at(-1)!);
    await producer.disconnect();

    const received = await consumeAll(history.length);
    expect(received.map((m) => m.value.id).sort()).to.deep.equal(history.map((e) => e.id).sort());
    for (const key of ['zone-a', 'zone-b', 'zone-c']) {
      const ofKey = received.filter((m) => m.key === key).map((m) => m.value.position);
      expect(ofKey, key).to.have.length.greaterThan(0);
      expect(ofKey, key).to.deep.equal([...ofKey].sort((a, b) => a - b));
    }
    expect(received.filter((m) => m.key === 'zone-a').map((m) => m.value.event)).to.deep.equal(['resource.register', 'resource.update', 'booking.create', 'booking.create']);
    expect(received.find((m) => m.key === 'zone-c')!.value.event).to.equal('zone.delete');
    for (const { headers, value } of received) {
      expect(headers).to.include({ ce_specversion: '1.0', ce_id: value.id, ce_type: value.event, ce_source: '/booking/v1', 'content-type': 'application/json' });
      expect(Date.parse(headers.ce_time!)).to.be.a('number').and.not.NaN;
    }
  });

  it('loses nothing when the broker restarts mid-run, and repeats a message only with the same id', async function () {
    if (!broker.brokers[0]!.startsWith('127.0.0.1') || process.env.KAFKA_BROKERS) this.skip();
    const zones = ['zone-r1', 'zone-r2', 'zone-r3'].map((resourceId) => sampleBooking({ resourceId }));
    const appended: RecordedEvent[] = [];
    for (let i = 0; i < 60; i++) {
      const zone = zones[i % zones.length]!;
      const booking = { ...zone, id: randomUUID(), title: `booking ${i}` };
      appended.push(...(await eventStore.appendToStream(`resource-${zone.bookableResourceId}`, [bookingCreated(booking)], 'any')).events);
    }
    const producer = createKafkaProducer(broker.brokers, createLogger('silent'));
    let sent = 0;
    const counting: KafkaSender = { connect: () => producer.connect(), disconnect: () => producer.disconnect(), send: (record) => ((sent += record.messages.length), producer.send(record)) };
    let sentBeforeRestart = 0;
    await relayUntil(counting, appended.at(-1)!, async () => {
      await waitFor(() => sent >= 20, { timeoutMs: 60_000, what: 'a third of the messages' });
      sentBeforeRestart = sent;
      await broker.restart();
    });
    expect(sentBeforeRestart, 'the broker restarted mid-run').to.be.lessThan(appended.length);
    await producer.disconnect().catch(() => undefined);

    const received = await consumeAll(appended.length);
    const byId = new Map<string, ReceivedMessage['value']>();
    for (const { value } of received) {
      const earlier = byId.get(value.id);
      if (earlier) expect(value, 'a repeated message is the same event').to.deep.equal(earlier);
      byId.set(value.id, value);
    }
    expect([...byId.keys()].sort()).to.deep.equal(appended.map((e) => e.id).sort());
    for (const zone of zones) {
      const firstSeen = [...new Set(received.filter((m) => m.key === zone.resourceId).map((m) => m.value.position))];
      const expected = appended.filter((e) => e.streamId === `resource-${zone.bookableResourceId}`).map((e) => e.globalPosition);
      expect(firstSeen, zone.resourceId).to.deep.equal(expected);
    }
  });

  (postgresServer ? it : it.skip)('replays history to the topic with npm run replay -- --to kafka, with the original ids', async () => {
    const history = published(await appendPublishedHistory(eventStore, randomUUID()));
    const run = await runReplay(['--after', '0', '--to', 'kafka'], { ...database.env, KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC: topic });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr).to.match(new RegExp(`sent ${history.length} events`));
    const received = await consumeAll(history.length);
    expect(received.map((m) => m.value.id).sort()).to.deep.equal(history.map((e) => e.id).sort());
    expect(received.filter((m) => m.key === 'zone-b').map((m) => m.value.position)).to.deep.equal(
      history.filter((e) => e.type !== 'ZoneDeleted' && e.streamId === history.find((h) => h.type === 'ResourceRegistered' && h.data.resourceId === 'zone-b')!.streamId).map((e) => e.globalPosition),
    );
  });

  (postgresServer ? it : it.skip)('replays pages larger than a broker takes in one request (4,000 events of one zone, 2.5 MB), in order', async () => {
    const zone = sampleBooking({ resourceId: 'zone-big' });
    const appended: RecordedEvent[] = [];
    for (let batch = 0; batch < 40; batch++) {
      const events = Array.from({ length: 100 }, (_, i) => bookingCreated({ ...zone, id: randomUUID(), title: `booking ${batch * 100 + i}` }));
      appended.push(...(await eventStore.appendToStream(`resource-${zone.bookableResourceId}`, events, 'any')).events);
    }
    const run = await runReplay(['--after', '0', '--to', 'kafka'], { ...database.env, KAFKA_BROKERS: broker.brokers.join(','), KAFKA_TOPIC: topic });
    expect(run.code, run.stderr).to.equal(0);
    const received = await consumeAll(appended.length);
    expect(received.reduce((bytes, m) => bytes + JSON.stringify(m.value).length, 0)).to.be.above(2 ** 21);
    expect(received.map((m) => m.value.position)).to.deep.equal(appended.map((e) => e.globalPosition));
  });
});
