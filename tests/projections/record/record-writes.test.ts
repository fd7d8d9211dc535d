import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { CommandContext } from '../../../src/commands/command-context.js';
import { createRecords } from '../../../src/commands/records/create-records.js';
import { zones } from '../../../src/commands/device/device-records.js';
import type { RecordKindConfig } from '../../../src/commands/records/record-kind-config.js';
import { writeRecord } from '../../../src/commands/records/write-record.js';
import type { Principal } from '../../../src/domain/access/principal.js';
import { DomainError, recordConflict } from '../../../src/domain/domain-error.js';
import { projectors } from '../../../src/projections/projectors.js';
import { createPostgresEventStore } from '../../../src/infra/event-store/postgres-event-store.js';
import { createLogger } from '../../../src/infra/logger.js';
import { createTestDatabase, type TestDatabase } from '../../support/test-database.js';

const at = Temporal.Instant.from('2026-05-01T10:00:00Z');
const admin: Principal = { sub: 'admin-1', workspace: null, level: 1, groups: [], email: null };

describe('record writes: the event and the row commit together', () => {
  let database: TestDatabase;
  let ctx: CommandContext;
  const w = randomUUID();

  const eventsOf = (streamId: string) =>
    database.db.selectFrom('events').select(['event_type', 'data']).where('stream_id', '=', streamId).orderBy('stream_revision').execute();
  const zoneRows = (id: string) => database.db.selectFrom('zones').select(['id', 'name', 'parent_zone_id']).where('workspace', '=', w).where('id', '=', id).execute();

  before(async () => {
    database = await createTestDatabase();
    ctx = { db: database.db, eventStore: createPostgresEventStore(database.db, { projections: projectors }), now: () => at, logger: createLogger('silent') };
  });
  after(() => database.destroy());

  it('appends the created, updated and deleted record with actor and time, and keeps the row in step', async () => {
    const key = { workspace: w, id: 'hq' };
    const hq = { id: 'hq', name: 'HQ', parentZoneId: null, workspace: w };
    await writeRecord(ctx, zones, key, 'admin-1', () => ({ change: 'created', record: hq }));
    await writeRecord(ctx, zones, key, 'admin-2', (current) => ({ change: 'updated', record: { ...current, name: 'Head office' } }));
    expect(await zoneRows('hq')).to.deep.equal([{ id: 'hq', name: 'Head office', parent_zone_id: null }]);
    await writeRecord(ctx, zones, key, 'admin-3', (current) => ({ change: 'deleted', record: current! }));
    expect(await zoneRows('hq')).to.deep.equal([]);
    expect(await eventsOf(`zone-${w}-hq`)).to.deep.equal([
      { event_type: 'ZoneCreated', data: { workspace: w, id: 'hq', record: hq, by: 'admin-1', at: '2026-05-01T10:00:00Z' } },
      { event_type: 'ZoneUpdated', data: { workspace: w, id: 'hq', record: { ...hq, name: 'Head office' }, by: 'admin-2', at: '2026-05-01T10:00:00Z' } },
      { event_type: 'ZoneDeleted', data: { workspace: w, id: 'hq', record: { ...hq, name: 'Head office' }, by: 'admin-3', at: '2026-05-01T10:00:00Z' } },
    ]);
  });

  it('stores neither event nor row when a rule refuses inside the transaction', async () => {
    const orphan = { id: 'orphan', name: 'Orphan', parentZoneId: 'ghost', workspace: w };
    const refused = await writeRecord(ctx, zones, { workspace: w, id: 'orphan' }, 'admin-1', () => ({ change: 'created', record: orphan })).catch((e: unknown) => e);
    expect(refused).to.be.instanceOf(DomainError);
    expect(await eventsOf(`zone-${w}-orphan`)).to.deep.equal([]);
    expect(await zoneRows('orphan')).to.deep.equal([]);
  });

  it('lets one of two racing creates of the same id win and refuses the other', async () => {
    const body = (name: string) => ({ id: 'race', name, workspace: w });
    const results = await Promise.allSettled([
      createRecords(ctx, zones, admin, undefined, [body('A')], false),
      createRecords(ctx, zones, admin, undefined, [body('B')], false),
    ]);
    expect(results.map((r) => r.status).sort()).to.deep.equal(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).to.be.instanceOf(DomainError).with.property('code', 'record_conflict');
    expect(await eventsOf(`zone-${w}-race`)).to.have.length(1);
  });

  it('undoes the records of a bulk already stored when a later one fails after the checks', async () => {
    let writes = 0;
    // Stands for a concurrent writer taking the third id between the checks and its write.
    const flaky: RecordKindConfig = {
      ...zones,
      rules: {
        ...zones.rules,
        beforeWrite: async (trx, change, key, record) => {
          if (change === 'created' && ++writes === 3) throw recordConflict(`Zone '${key.id}' already exists`);
          await zones.rules.beforeWrite!(trx, change, key, record);
        },
      },
    };
    const bulk = [
      { id: 'b-root', name: 'Root', workspace: w },
      { id: 'b-child', name: 'Child', parentZoneId: 'b-root', workspace: w },
      { id: 'b-late', name: 'Late', workspace: w },
    ];
    const failure = await createRecords(ctx, flaky, admin, undefined, bulk, true).catch((e: unknown) => e);
    expect(failure).to.be.instanceOf(DomainError).with.property('code', 'record_conflict');
    for (const id of ['b-root', 'b-child', 'b-late']) expect(await zoneRows(id), id).to.deep.equal([]);
    expect((await eventsOf(`zone-${w}-b-child`)).map((e) => e.event_type)).to.deep.equal(['ZoneCreated', 'ZoneDeleted']);
    expect((await eventsOf(`zone-${w}-b-root`)).map((e) => e.event_type)).to.deep.equal(['ZoneCreated', 'ZoneDeleted']);
    expect(await eventsOf(`zone-${w}-b-late`)).to.deep.equal([]);
  });
});
