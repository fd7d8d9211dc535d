import type { Database } from '../db/database.js';
import type { DeviceDirectory } from './device-directory.js';

/** This process's own device and zone records (PLATFORM_DEVICE_SERVICE_URL unset). */
export function createLocalDeviceDirectory(db: Database): DeviceDirectory {
  return {
    async lookup(kind, workspace, id) {
      const table = kind === 'zone' ? 'zones' : 'devices';
      const row = await db.selectFrom(table).select('name').where('workspace', '=', workspace).where('id', '=', id).executeTakeFirst();
      return row ? { name: row.name } : null;
    },
  };
}
