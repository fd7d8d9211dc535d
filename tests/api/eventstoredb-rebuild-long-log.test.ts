import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import { decideRegister } from '../../src/domain/resource/decide-resource.js';
import { resourceStreamId } from '../../src/domain/resource/resource.js';
import { eventStoreDbPages } from '../../src/infra/event-store/eventstoredb-all-pages.js';
import { createEventStoreDbEventStore } from '../../src/infra/event-store/eventstoredb-event-store.js';
import { rebuildReadModels } from '../../src/projections/rebuild-read-models.js';
import { fakeEventStoreDb } from '../support/fake-eventstoredb.js';
import { projectionsCheckpointOnAll } from '../support/projections-checkpoint.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const admin: Principal = { sub: 'admin', workspace: null, level: 1, groups: [], email: null };

// No runner follows the log here: what the read models and the checkpoint hold is the rebuild's alone.
describe('EVENT_STORE=eventstoredb: rebuilding the read models from a long $all', function () {
  this.timeout(60_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database?.destroy());

  it('replays every event, past runs of system events and pauses of the server, and leaves the runner at the last one', async () => {
    const esdb = fakeEventStoreDb();
    const store = createEventStoreDbEventStore(esdb.client);
    const ids = Array.from({ length: 2_500 }, () => randomUUID());
    const workspace = randomUUID();
    const at = Temporal.Instant.from('2027-01-04T08:00:00Z');
    for (const [i, id] of ids.entries()) {
      const registered = decideRegister({ id, workspace, resourceType: 'zone', resourceId: `zone-${i}`, resourceName: null }, null, admin, at);
      await store.appendToStream(resourceStreamId(id), [registered], 'no_stream');
      // The server's statistics, written while the service was idle: once a run longer than a page.
      if (i === 1_200) for (let s = 0; s < 1_500; s++) esdb.appendSystemEvent();
      else if (i % 300 === 0) esdb.appendSystemEvent();
    }
    esdb.appendSystemEvent();
    esdb.deliverInBursts(250, 50);

    const { events } = await rebuildReadModels(database.db, { projections: 'async' }, { eventStoreDb: eventStoreDbPages(esdb.client) });
    expect(events).to.equal(ids.length);
    const rows = await database.db.selectFrom('resources').select('id').execute();
    expect(rows.map((r) => r.id).sort()).to.deep.equal([...ids].sort());
    expect(await projectionsCheckpointOnAll(database.db)).to.deep.equal(esdb.events().at(-1)!.position);
  });
});
