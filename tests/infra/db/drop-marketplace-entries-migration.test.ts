import { expect } from 'chai';
import { sql } from 'kysely';
import { migrateTo, migrateToLatest } from '../../../src/infra/db/migrate.js';
import { createUnmigratedDatabase } from '../../support/test-database.js';

describe('migration 0014: the marketplace entries of old are dropped', function () {
  this.timeout(60_000);

  it('drops the table on the way up and creates it again on the way down', async () => {
    const { db, destroy } = await createUnmigratedDatabase();
    const tableExists = async () => (await sql<{ found: string | null }>`select to_regclass('marketplace_entries')::text as found`.execute(db)).rows[0]?.found !== null;
    try {
      await migrateTo(db, '0013-bookings-archive');
      expect(await tableExists()).to.equal(true);
      await migrateToLatest(db);
      expect(await tableExists()).to.equal(false);
      await migrateTo(db, '0013-bookings-archive');
      expect(await tableExists()).to.equal(true);
    } finally {
      await destroy();
    }
  });
});
