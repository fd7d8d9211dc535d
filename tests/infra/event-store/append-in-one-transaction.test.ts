import { expect } from 'chai';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { verifyHashChains } from '../../../src/infra/event-store/verify-hash-chains.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

describe('appending to several streams in one transaction (PostgreSQL store)', function () {
  this.timeout(60_000);
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.destroy());
  const event = (n: number) => ({ type: 'Noted', data: { n } });

  it('commits every append together, each chained on its own stream with its expected revision', async () => {
    const store = createPostgresEventStore(database.db, { projections: [] });
    await store.appendToStream('unit-a', [event(1)], 'no_stream');
    const recorded = await store.appendInOneTransaction!(async (_trx, append) => [
      ...(await append('unit-a', [event(2), event(3)], 0)),
      ...(await append('unit-b', [event(4)], 'no_stream')),
    ]);
    expect(recorded.map((e) => [e.streamId, e.streamRevision])).to.deep.equal([['unit-a', 1], ['unit-a', 2], ['unit-b', 0]]);
    expect(new Set(recorded.map((e) => e.transactionId)).size).to.equal(1);
    expect(await store.readStreamRevision('unit-a')).to.equal(2);
    expect((await verifyHashChains(database.db)).breaks).to.deep.equal([]);
  });

  it('writes nothing when one append meets a stale revision', async () => {
    const store = createPostgresEventStore(database.db, { projections: [] });
    let thrown: unknown;
    try {
      await store.appendInOneTransaction!(async (_trx, append) => {
        await append('unit-c', [event(5)], 'no_stream');
        await append('unit-a', [event(6)], 0);
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(WrongExpectedRevisionError);
    expect(await store.readStreamRevision('unit-c')).to.equal(null);
    expect(await store.readStreamRevision('unit-a')).to.equal(2);
  });
});
