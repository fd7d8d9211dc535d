import type { Database } from '../../src/infra/db/database.js';

/** Puts a zone into the service's own device records, as the device service would hold it. */
export async function seedZone(db: Database, workspace: string, id: string, name = `Zone ${id}`): Promise<void> {
  await db.insertInto('zones').values({ workspace, id, name, parent_zone_id: null }).execute();
}
