import type { DeviceRecord, ZoneRecord } from '../../src/domain/record/device-record.js';

/** A zone record as the device service holds it. */
export function zoneRecord(workspace: string, id: string, name = `Zone ${id}`): ZoneRecord {
  return { id, name, parentZoneId: null, workspace };
}

/** A device record as the device service holds it, every field set. */
export function deviceRecord(workspace: string, id: string): DeviceRecord {
  return { id, shortName: id, name: `Device ${id}`, type: 'display', visible: true, extra: {}, decoder: '', extName: '', enableAlert: false, timeout: 0, stateRef: [], workspace };
}
