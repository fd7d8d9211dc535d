import { zoneCreated } from '../../src/domain/record/device-record-events.js';
import type { Database } from '../../src/infra/db/database.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { projectors } from '../../src/projections/projectors.js';
import { zoneRecord } from './record-samples.js';

/**
 * Puts a zone into the service's own device records, as the device service would hold it: through
 * the log (ZoneCreated) like any write, so that a rebuild of the read models finds it again.
 */
export async function seedZone(db: Database, workspace: string, id: string, name = `Zone ${id}`): Promise<void> {
  const event = { type: zoneCreated, data: { workspace, id, record: zoneRecord(workspace, id, name), by: 'test-seed', at: new Date().toISOString() } };
  await createPostgresEventStore(db, { projections: projectors }).appendToStream(`zone-${workspace}-${id}`, [event], 'no_stream');
}
