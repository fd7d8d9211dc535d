import { recordConflict } from '../../domain/domain-error.js';
import type { ZoneRecord } from '../../domain/record/device-record.js';
import { checkZoneParent, orderParentsFirst } from '../../domain/record/zone-hierarchy.js';
import { selectExistingKeys } from '../../projections/record/select-records.js';
import { zoneKind } from '../../projections/record/zone-kind.js';
import { hasChildZones, lockZoneTree, zoneAndAncestors } from '../../projections/record/zone-tree-queries.js';
import type { RecordRules } from '../records/record-kind-config.js';

const asZone = (record: unknown) => record as ZoneRecord;

/** Parents exist in the zone's workspace, no cycles, no deleting a zone that still has children. */
export const zoneRules: RecordRules = {
  async prepareCreate(db, records) {
    const zones = records.map(asZone);
    const parents = zones.flatMap((zone) => (zone.parentZoneId === null ? [] : [{ workspace: zone.workspace, id: zone.parentZoneId }]));
    const existing = new Set((await selectExistingKeys(db, zoneKind, parents)).map((key) => `${key.workspace}\u0000${key.id}`));
    const ordered = orderParentsFirst(zones, (zone) => existing.has(`${zone.workspace}\u0000${zone.parentZoneId}`));
    return ordered as unknown as typeof records;
  },

  async beforeWrite(trx, change, _key, record) {
    const zone = asZone(record);
    await lockZoneTree(trx, zone.workspace);
    if (change === 'deleted') {
      if (await hasChildZones(trx, zone.workspace, zone.id)) throw recordConflict(`Zone '${zone.id}' still has child zones`);
      return;
    }
    if (zone.parentZoneId === null) return;
    checkZoneParent(zone.id, zone.parentZoneId, await zoneAndAncestors(trx, zone.workspace, zone.parentZoneId));
  },
};
