import { expect } from 'chai';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { createKafkaProducer } from '../../../src/infra/kafka/create-kafka-producer.js';
import type { EventStore } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../../../src/infra/logger.js';
import { kafkaRelay } from '../../../src/workers/kafka/kafka-relay.js';
import { processBatch } from '../../../src/workers/process-batch.js';
import { readCheckpoint } from '../../../src/infra/event-store/processor-checkpoint.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';
import { kafkaAvailability, startKafkaBroker, type KafkaBroker } from '../../support/kafka-broker.js';
import { consumeTopic, createTopic } from '../../support/kafka-topic.js';
import { bookingCreated, sampleBooking } from '../../workers/booking-event-fixture.js';
import { logSettled } from '../../workers/worker-test-kit.js';

(kafkaAvailability() ? describe : describe.skip)('Kafka relay against a real broker (KAFKA_BROKERS, or KAFKA_LIBS to start one)', () => {
  let topic: string;
  let broker: KafkaBroker;
  let kafka: Kafka;
  let database: TestDatabase;
  let eventStore: EventStore;
  let producer: Producer;

  before(async function () {
    this.timeout(120_000);
    broker = await startKafkaBroker();
    kafka = new Kafka({ clientId: 'booking-contract-test', brokers: broker.brokers, logLevel: logLevel.NOTHING });
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
    topic = await createTopic(kafka, 'booking-events-test');
    producer = createKafkaProducer(broker.brokers, createLogger('silent'));
  });
  after(async () => {
    await producer?.disconnect();
    await database?.destroy();
    await broker?.stop();
  });

  it('delivers each booking event once per partition key, in log order, with CloudEvents headers', async function () {
    this.timeout(60_000);
    const zoneA = sampleBooking({ resourceId: 'zone-a' });
    const zoneB = sampleBooking({ resourceId: 'zone-b' });
    // The relay was enabled before these events: they are new to it, not history.
    await readCheckpoint(database.db, 'kafka-relay', 'log-end');
    const appended = [
      ...(await eventStore.appendToStream(`resource-${zoneA.bookableResourceId}`, [bookingCreated(zoneA)], 'any')).events,
      ...(await eventStore.appendToStream(`resource-${zoneB.bookableResourceId}`, [bookingCreated(zoneB)], 'any')).events,
      ...(await eventStore.appendToStream(`resource-${zoneA.bookableResourceId}`, [{ ...bookingCreated({ ...zoneA, title: 'again' }) }], 'any')).events,
    ];
    await logSettled(database.db, eventStore);
    await processBatch({ db: database.db, eventStore }, kafkaRelay(producer, topic), 100);

    const received = await consumeTopic(kafka, topic, appended.length, 30_000);
    expect(received.map((m) => m.value.id).sort()).to.deep.equal(appended.map((e) => e.id).sort());
    expect(received.filter((m) => m.key === 'zone-a').map((m) => m.value.id)).to.deep.equal([appended[0]!.id, appended[2]!.id]);
    for (const message of received) {
      expect(message.headers).to.include({ ce_specversion: '1.0', ce_id: message.value.id, ce_type: 'booking.create', ce_source: '/booking/v1', 'content-type': 'application/json' });
    }
  });
});
