import { expect } from 'chai';
import { logStart, type EventStore, type RecordedEvent } from '../../../src/infra/event-store/event-store.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { openSession } from '../../support/database-session.js';
import { createScratchDatabase, type PostgresConfig, type ScratchDatabase } from '../../support/scratch-database.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

/** A session that took a transaction id and stays idle in transaction until `end()`. */
async function idleInTransaction(config: PostgresConfig, as: 'service' | 'operator') {
  const client = await openSession(config, as);
  await client.query('begin');
  await client.query('select pg_current_xact_id()');
  return {
    async end() {
      await client.query('commit');
      await client.end();
    },
  };
}

async function readEverything(store: EventStore): Promise<RecordedEvent[]> {
  return store.readAll({ after: logStart, maxCount: 1_000 });
}

describe('the horizon of the global log (PostgreSQL: other sessions on the same server)', () => {
  let database: TestDatabase;
  let other: ScratchDatabase;
  let store: EventStore;

  before(async function () {
    if (!process.env.DB_HOST) this.skip();
    database = await createTestDatabase();
    other = await createScratchDatabase('booking_other');
    store = createPostgresEventStore(database.db, { projections: [] });
  });
  after(async () => {
    await database?.destroy();
    await other?.drop();
  });

  it('is not held back by a transaction left open in another database', async () => {
    const elsewhere = await idleInTransaction(other.config, 'service');
    try {
      const { events } = await store.appendToStream('horizon-a', [{ type: 'Noted', data: { n: 1 } }], 'any');
      expect((await readEverything(store)).map((e) => e.id)).to.include(events[0]!.id);
    } finally {
      await elsewhere.end();
    }
  });

  it("is not held back by an operator's session left idle in transaction in this database", async () => {
    const operator = await idleInTransaction(database.config!, 'operator');
    try {
      const { events } = await store.appendToStream('horizon-c', [{ type: 'Noted', data: { n: 1 } }], 'any');
      expect((await readEverything(store)).map((e) => e.id)).to.include(events[0]!.id);
    } finally {
      await operator.end();
    }
  });

  it("waits for a service connection's transaction left open in this database, and passes nothing over once it ends", async () => {
    const here = await idleInTransaction(database.config!, 'service');
    let appended: string;
    try {
      appended = (await store.appendToStream('horizon-b', [{ type: 'Noted', data: { n: 1 } }], 'any')).events[0]!.id;
      expect((await readEverything(store)).map((e) => e.id)).to.not.include(appended);
    } finally {
      await here.end();
    }
    expect((await readEverything(store)).map((e) => e.id)).to.include(appended);
  });
});
