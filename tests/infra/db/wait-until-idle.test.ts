import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { sql } from 'kysely';
import { waitUntilIdle } from '../../../src/infra/db/database.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

describe('waiting for the database to fall idle before disconnecting', () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.destroy());

  it('returns only after the queries still running have finished', async function () {
    if (!database.isServer) this.skip();
    let finishedAt = 0;
    const running = sql`select pg_sleep(0.3)`.execute(database.db).then(() => (finishedAt = Date.now()));
    await sleep(50);
    await waitUntilIdle(database.db, { quietMs: 50 });
    expect(finishedAt, 'the 300 ms query had finished').to.be.greaterThan(0);
    await running;
  });
});
