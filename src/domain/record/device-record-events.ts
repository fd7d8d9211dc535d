import type { DeviceRecord, ZoneRecord } from './device-record.js';
import type { RecordEventData } from './record-event.js';

export const deviceCreated = 'DeviceCreated';
export const deviceUpdated = 'DeviceUpdated';
export const deviceDeleted = 'DeviceDeleted';
export const zoneCreated = 'ZoneCreated';
export const zoneUpdated = 'ZoneUpdated';
export const zoneDeleted = 'ZoneDeleted';

/** Streams: `device-<workspace>-<id>` and `zone-<workspace>-<id>`; a deleted record's data holds the record as it was. */
export type DeviceRecordEvent =
  | { type: typeof deviceCreated | typeof deviceUpdated | typeof deviceDeleted; data: RecordEventData<DeviceRecord> & { workspace: string; id: string } }
  | { type: typeof zoneCreated | typeof zoneUpdated | typeof zoneDeleted; data: RecordEventData<ZoneRecord> & { workspace: string; id: string } };

