import { expect } from 'chai';
import { sql } from 'kysely';
import { compileOnce, holesOf } from '../../../src/infra/db/sql-template.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

describe('plans of the statements compiled once, on a PostgreSQL server', () => {
  let database: TestDatabase;
  before(async function () {
    database = await createTestDatabase();
    if (!database.isServer) this.skip();
  });
  after(() => database?.destroy());

  const byName = compileOnce(sql`select count(*)::int as n from generate_series(1, ${holesOf().upTo}::int)`);

  it('plans a named statement once for its parameters, not afresh for each set of values', async () => {
    const plans = await database.db.connection().execute(async (connection) => {
      for (const upTo of [1, 10, 100, 1_000, 10_000, 100_000, 3]) {
        const { rows } = await connection.executeQuery<{ n: number }>(byName.fill({ upTo }));
        expect(rows[0]!.n).to.equal(upTo);
      }
      const { rows } = await sql<{ generic_plans: number; custom_plans: number }>`
        select generic_plans, custom_plans from pg_prepared_statements where statement = ${byName.fill({ upTo: 0 }).sql}`.execute(connection);
      return rows;
    });
    expect(plans).to.deep.equal([{ generic_plans: 7, custom_plans: 0 }]);
  });

  it('sets that mode on every pooled connection, and prepares by name only the statements compiled once', async () => {
    const { rows } = await sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.execute(database.db);
    expect(rows[0]!.mode).to.equal('force_generic_plan');
    const { rows: named } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like '%current_setting%'`.execute(database.db);
    expect(named[0]!.n).to.equal(0);
  });
});
