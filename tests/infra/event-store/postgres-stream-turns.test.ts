import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import { handleCommand } from '../../../src/commands/handle-command.js';
import type { EventStore } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';
import { createLogger } from '../../../src/infra/logger.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

const noted = (n: number) => ({ type: 'Noted', data: { n } });

/** Turns need a server: on the embedded database one connection serialises everything anyway. */
describe('turns on a PostgreSQL stream (EventStore.inTurn)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let store: EventStore<any>;

  before(async function () {
    database = await createTestDatabase();
    if (!database.isServer) return this.skip();
    store = createPostgresEventStore(database.db, { projections: [] });
  });
  after(() => database?.destroy());

  it('holds off other writers: an optimistic append made during a turn waits, then finds the revision moved', async () => {
    await store.appendToStream('turn-a', [noted(0)], 'no_stream');
    let rival: Promise<unknown> | undefined;
    const appended = await store.inTurn!('turn-a', async (turn) => {
      expect(turn.revision).to.equal(0);
      rival = store.appendToStream('turn-a', [noted(1)], 0).then(() => 'appended', (error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return turn.append([noted(2)]);
    });
    expect(appended.events.map((e) => e.streamRevision)).to.deep.equal([1]);
    const lost = await rival;
    expect(lost).to.be.instanceOf(WrongExpectedRevisionError);
    expect((lost as WrongExpectedRevisionError).actual).to.equal(1);
    expect((await store.readStream('turn-a')).map((e) => e.data.n)).to.deep.equal([0, 2]);
  });

  it('queues its writers: 30 turns at once each append on the revision it read, none refused', async () => {
    await store.appendToStream('turn-b', [noted(0)], 'no_stream');
    const seen = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        store.inTurn!('turn-b', async (turn) => {
          await turn.append([noted(i + 1)]);
          return turn.revision;
        }),
      ),
    );
    expect([...seen].sort((a, b) => a! - b!)).to.deep.equal(Array.from({ length: 30 }, (_, i) => i));
    expect((await store.readStream('turn-b')).map((e) => e.streamRevision)).to.deep.equal(Array.from({ length: 31 }, (_, i) => i));
  });

  it('keeps the expected-revision check on a stream that did not exist (no row to hold): one creates it, the other is refused', async () => {
    const outcomes = await Promise.all(
      [1, 2].map((n) =>
        store.inTurn!('turn-c', async (turn) => {
          expect(turn.revision).to.equal(null);
          await new Promise((resolve) => setTimeout(resolve, 100));
          await turn.append([noted(n)]);
          return 'appended';
        }).catch((error: unknown) => error),
      ),
    );
    expect(outcomes.filter((o) => o === 'appended')).to.have.length(1);
    const refused = outcomes.find((o) => o !== 'appended');
    expect(refused).to.be.instanceOf(WrongExpectedRevisionError);
    expect((refused as WrongExpectedRevisionError).actual).to.equal(0);
    expect(await store.readStream('turn-c')).to.have.length(1);
  });

  it('writes nothing when the work fails', async () => {
    await store.appendToStream('turn-d', [noted(0)], 'no_stream');
    const failed = await store.inTurn!('turn-d', async (turn) => {
      await turn.append([noted(1)]);
      throw new Error('refused after the append');
    }).catch((error: unknown) => error);
    expect((failed as Error).message).to.equal('refused after the append');
    expect(await store.readStream('turn-d')).to.have.length(1);
  });

  it('lets a command converge against writers that never pause: where optimistic retries lose every race, its turn wins', async () => {
    await store.appendToStream('turn-e', [noted(0)], 'no_stream');
    const ctx = { db: database.db, eventStore: store, now: () => Temporal.Now.instant(), logger: createLogger('silent') };
    let running = true;
    // Rivals append back to back, each right after the last: an optimistic writer's read is stale by its append.
    const rivals = Array.from({ length: 3 }, async () => {
      let appends = 0;
      while (running) {
        await store.appendToStream('turn-e', [noted(-1)], 'any');
        appends += 1;
      }
      return appends;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      for (let i = 0; i < 5; i++) {
        const { events } = await handleCommand(ctx, 'turn-e', { load: async () => null, decide: () => [noted(i + 1)] });
        expect(events).to.have.length(1);
      }
    } finally {
      running = false;
    }
    expect((await Promise.all(rivals)).every((appends) => appends > 0)).to.equal(true);
    const mine = (await store.readStream('turn-e')).filter((e) => (e.data.n as number) > 0).map((e) => e.data.n);
    expect(mine).to.deep.equal([1, 2, 3, 4, 5]);
  });
});
