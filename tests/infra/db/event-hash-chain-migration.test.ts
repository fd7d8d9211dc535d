import { expect } from 'chai';
import { sql } from 'kysely';
import type { Database } from '../../../src/infra/db/database.js';
import { migrateTo, migrateToLatest } from '../../../src/infra/db/migrate.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { verifyHashChains } from '../../../src/infra/event-store/verify-hash-chains.js';
import { createUnmigratedDatabase } from '../../support/test-database.js';

describe('migrating a log stored before the hash chain', function () {
  this.timeout(60_000);
  let db: Database;
  let destroy: () => Promise<void>;
  beforeEach(async () => {
    ({ db, destroy } = await createUnmigratedDatabase());
  });
  afterEach(() => destroy());

  it('chains the stored events, and appends continue the chains', async () => {
    await migrateTo(db, '0008-catalog');
    for (const [stream, count] of [['resource-a', 3], ['resource-b', 1200]] as const) {
      await sql`insert into streams (stream_id, stream_revision) values (${stream}, ${count - 1})`.execute(db);
      await sql`
        insert into events (event_id, stream_id, stream_revision, event_type, data)
        select gen_random_uuid(), ${stream}, n, 'Counted', jsonb_build_object('n', n, 'name', 'ä "x"')
        from generate_series(0, ${count - 1}) as n`.execute(db);
    }
    await migrateToLatest(db);
    expect(await verifyHashChains(db)).to.deep.equal({ checked: 1203, breaks: [] });

    const store = createPostgresEventStore(db, { projections: [] });
    await store.appendToStream('resource-a', [{ type: 'Counted', data: { n: 3 } }], 2);
    await store.appendToStream('resource-b', [{ type: 'Counted', data: { n: 1200 } }], 'any');
    expect(await verifyHashChains(db)).to.deep.equal({ checked: 1205, breaks: [] });
  });
});
