import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Config } from '../../src/infra/config.js';
import type { EventStore, RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../../src/infra/logger.js';
import { createExclusiveLock } from '../../src/workers/create-exclusive-lock.js';
import { processBatch } from '../../src/workers/process-batch.js';
import type { Processor } from '../../src/workers/processor.js';
import { readCheckpoint } from '../../src/infra/event-store/processor-checkpoint.js';
import { startProcessor } from '../../src/workers/start-processor.js';
import { webhookRelay } from '../../src/workers/webhook/webhook-relay.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';
import { bookingCreated, sampleBooking } from './booking-event-fixture.js';
import { logSettled, waitFor } from './worker-test-kit.js';

const runnerOptions = { batchSize: 100, pollIntervalMs: 10, standbyRetryMs: 20, backoff: { initialMs: 10, maxMs: 50 } };
const silent = createLogger('silent');

const label = (e: RecordedEvent) => `${e.streamId}/${String(e.data.n)}`;

function recorder(name: string, fail?: (event: RecordedEvent) => boolean) {
  const seen: string[] = [];
  const processor: Processor = {
    name,
    mode: 'at-least-once',
    async handle(event) {
      if (fail?.(event)) throw new Error(`handling ${label(event)} failed`);
      seen.push(label(event));
    },
  };
  return { seen, processor };
}

describe('processors following the global log', () => {
  let database: TestDatabase;
  let eventStore: EventStore;
  const append = async (stream: string, ...numbers: number[]) => {
    await eventStore.appendToStream(stream, numbers.map((n) => ({ type: 'Noted', data: { n } })), 'any');
    await logSettled(database.db, eventStore);
  };
  const lockFor = (name: string) =>
    createExclusiveLock({ config: { database: database.config ?? { kind: 'embedded', dataDir: '' } } as Config, db: database.db }, name);
  const deps = () => ({ db: database.db, eventStore });

  beforeEach(async () => {
    database = await createTestDatabase();
    eventStore = createPostgresEventStore(database.db, { projections: [] });
  });
  afterEach(() => database.destroy());

  it('hands over every event in commit order and resumes after its checkpoint, repeating nothing', async () => {
    await append('a', 1, 2, 3);
    await append('b', 1, 2);
    await append('a', 4);
    const first = recorder('follower');
    expect(await processBatch(deps(), first.processor, 4)).to.equal(4);
    expect(await processBatch(deps(), first.processor, 4)).to.equal(2);
    expect(first.seen).to.deep.equal(['a/1', 'a/2', 'a/3', 'b/1', 'b/2', 'a/4']);

    const restarted = recorder('follower');
    expect(await processBatch(deps(), restarted.processor, 4)).to.equal(0);
    await append('b', 3);
    await processBatch(deps(), restarted.processor, 4);
    expect(restarted.seen).to.deep.equal(['b/3']);
  });

  it('moves its checkpoint past the events it ignores', async () => {
    await append('a', 1, 2, 3);
    await processBatch(deps(), { name: 'picky', mode: 'at-least-once', handle: async () => undefined }, 100);
    const [last] = (await eventStore.readStream('a')).slice(-1);
    expect(await readCheckpoint(database.db, 'picky')).to.deep.equal({ transactionId: last!.transactionId, globalPosition: last!.globalPosition });
  });

  it('commits a transactional effect and the checkpoint together: a failure leaves neither', async () => {
    const ok = sampleBooking();
    const boom = sampleBooking({ title: 'boom' });
    await eventStore.appendToStream(`resource-${ok.bookableResourceId}`, [bookingCreated(ok)], 'any');
    await eventStore.appendToStream(`resource-${boom.bookableResourceId}`, [bookingCreated(boom)], 'any');
    await logSettled(database.db, eventStore);
    const failing: Processor = {
      name: webhookRelay.name,
      mode: 'transactional',
      async handle(trx, event) {
        if (webhookRelay.mode === 'transactional') await webhookRelay.handle(trx, event);
        if ((event.data.booking as { title: string }).title === 'boom') throw new Error('boom');
      },
    };
    await processBatch(deps(), failing, 100).then(
      () => expect.fail('the batch should fail'),
      (error: Error) => expect(error.message).to.equal('boom'),
    );
    const queued = () => database.db.selectFrom('webhook_deliveries').select('event_id').execute();
    expect(await queued()).to.deep.equal([]);
    expect(await readCheckpoint(database.db, webhookRelay.name)).to.deep.equal({ transactionId: '0', globalPosition: 0 });

    await processBatch(deps(), webhookRelay, 100);
    await processBatch(deps(), webhookRelay, 100);
    expect(await queued()).to.have.length(2);
  });

  it('starts a relay enabled on a database with history at the end of the log; other processors start at its beginning', async () => {
    const history = sampleBooking();
    await eventStore.appendToStream(`resource-${history.bookableResourceId}`, [bookingCreated(history)], 'any');
    await logSettled(database.db, eventStore);
    const queued = async () => (await database.db.selectFrom('webhook_deliveries').select('payload').execute()).map((r) => r.payload.data.id);

    expect(await processBatch(deps(), webhookRelay, 100)).to.equal(0);
    expect(await queued()).to.deep.equal([]);
    const { seen, processor } = recorder('from-the-start');
    await processBatch(deps(), processor, 100);
    expect(seen).to.have.length(1);

    const fresh = sampleBooking();
    await eventStore.appendToStream(`resource-${fresh.bookableResourceId}`, [bookingCreated(fresh)], 'any');
    await logSettled(database.db, eventStore);
    expect(await processBatch(deps(), webhookRelay, 100)).to.equal(1);
    expect(await queued()).to.deep.equal([fresh.id]);
  });

  it('keeps the progress made before an at-least-once failure and repeats from the failed event', async () => {
    await append('a', 1, 2, 3, 4);
    let failures = 1;
    const { seen, processor } = recorder('flaky', (event) => event.data.n === 3 && failures-- > 0);
    await processBatch(deps(), processor, 100).catch(() => undefined);
    expect(seen).to.deep.equal(['a/1', 'a/2']);
    await processBatch(deps(), processor, 100);
    expect(seen).to.deep.equal(['a/1', 'a/2', 'a/3', 'a/4']);
  });

  it('is supervised: a failing round is retried with backoff until it succeeds, and the loop lives on', async () => {
    await append('a', 1, 2);
    let failures = 3;
    const { seen, processor } = recorder('supervised', (event) => event.data.n === 2 && failures-- > 0);
    const loop = startProcessor({ ...deps(), logger: silent, lock: lockFor('supervised') }, processor, runnerOptions);
    try {
      await waitFor(() => seen.length === 2, { what: 'the retried event' });
      await append('a', 3);
      await waitFor(() => seen.length === 3, { what: 'an event after the failures' });
      expect(seen).to.deep.equal(['a/1', 'a/2', 'a/3']);
    } finally {
      await loop.stop();
    }
  });

  it('lets one instance of a processor run at a time; a standby takes over when it stops', async () => {
    const first = lockFor('single');
    const second = lockFor('single');
    expect(await first.acquire()).to.equal(true);
    expect(await second.acquire()).to.equal(false);
    expect(await lockFor('another').acquire()).to.equal(true);
    await first.release();
    expect(await second.acquire()).to.equal(true);
    await second.release();

    const a = recorder('exclusive');
    const b = recorder('exclusive');
    const loopA = startProcessor({ ...deps(), logger: silent, lock: lockFor('exclusive') }, a.processor, runnerOptions);
    await waitFor(async () => (await database.db.selectFrom('processor_checkpoints').select('name').execute()).length > 0);
    const loopB = startProcessor({ ...deps(), logger: silent, lock: lockFor('exclusive') }, b.processor, runnerOptions);
    try {
      await append('a', 1, 2);
      await waitFor(() => a.seen.length === 2, { what: 'the active instance' });
      await loopA.stop();
      await append('a', 3);
      await waitFor(() => b.seen.length === 1, { what: 'the standby' });
      expect(a.seen).to.deep.equal(['a/1', 'a/2']);
      expect(b.seen).to.deep.equal(['a/3']);
    } finally {
      await loopA.stop();
      await loopB.stop();
    }
  });

  describe('on PostgreSQL (several connections)', () => {
    beforeEach(function () {
      if (!database.isServer) this.skip(); // PGlite has one connection: no concurrent transactions, no second session
    });

    it('never skips an event that a slower transaction commits after a later one', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const slow = eventStore.appendToStream('slow', [{ type: 'Noted', data: { n: 1 } }], 'any', { inTransaction: () => gate });
      await sleep(50);
      await eventStore.appendToStream('fast', [{ type: 'Noted', data: { n: 1 } }], 'any');
      const { seen, processor } = recorder('late-commit');
      expect(await processBatch(deps(), processor, 100)).to.equal(0);
      release();
      await slow;
      await logSettled(database.db, eventStore);
      await processBatch(deps(), processor, 100);
      expect(seen).to.deep.equal(['slow/1', 'fast/1']);
    });

    it('places a new relay below a transaction still running: its late commit is delivered', async () => {
      let release!: () => void;
      let appended!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const lateAppended = new Promise<void>((resolve) => (appended = resolve));
      const late = sampleBooking();
      const early = sampleBooking();
      const slow = eventStore.appendToStream(`resource-${late.bookableResourceId}`, [bookingCreated(late)], 'any', {
        inTransaction: () => {
          appended();
          return gate;
        },
      });
      // The slow transaction holds its id and its (smaller) position before the early one appends.
      await lateAppended;
      await eventStore.appendToStream(`resource-${early.bookableResourceId}`, [bookingCreated(early)], 'any');
      expect(await processBatch(deps(), webhookRelay, 100)).to.equal(0);
      release();
      await slow;
      await logSettled(database.db, eventStore);
      await processBatch(deps(), webhookRelay, 100);
      const queued = await database.db.selectFrom('webhook_deliveries').select('payload').orderBy('queue_order').execute();
      expect(queued.map((r) => r.payload.data.id)).to.deep.equal([late.id, early.id]);
    });

    it('frees the lock when the holding connection dies', async () => {
      const holder = lockFor('fragile');
      const standby = lockFor('fragile');
      expect(await holder.acquire()).to.equal(true);
      expect(await standby.acquire()).to.equal(false);
      const { rows } = await (await import('kysely')).sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_locks where locktype = 'advisory' and granted and database = (select oid from pg_database where datname = current_database())`.execute(
        database.db,
      );
      expect(rows[0]!.n).to.equal(1);
      await waitFor(() => standby.acquire(), { what: 'the lock after its holder died' });
      expect(await holder.acquire()).to.equal(false);
      await holder.release();
      await standby.release();
    });
  });
});
