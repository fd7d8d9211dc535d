import { expect } from 'chai';
import { sql } from 'kysely';
import { createEmbeddedDatabase, createDatabase, type Database } from '../../../src/infra/db/database.js';
import { migrateTo, migrateToLatest } from '../../../src/infra/db/migrate.js';
import { createScratchDatabase, postgresServer } from '../../support/scratch-database.js';

describe('migration 0014: the marketplace entries of old are dropped', function () {
  this.timeout(60_000);
  let db: Database;
  let drop: () => Promise<void>;
  beforeEach(async () => {
    if (postgresServer) {
      const scratch = await createScratchDatabase('booking_mig');
      db = createDatabase(scratch.config);
      drop = async () => {
        await db.destroy();
        await scratch.drop();
      };
    } else {
      db = createEmbeddedDatabase();
      drop = () => db.destroy();
    }
  });
  afterEach(() => drop());

  const tableExists = async () => (await sql<{ found: string | null }>`select to_regclass('marketplace_entries')::text as found`.execute(db)).rows[0]?.found !== null;

  it('drops the table on the way up and creates it again on the way down', async () => {
    await migrateTo(db, '0013-bookings-archive');
    expect(await tableExists()).to.equal(true);
    await migrateToLatest(db);
    expect(await tableExists()).to.equal(false);
    await migrateTo(db, '0013-bookings-archive');
    expect(await tableExists()).to.equal(true);
  });
});
