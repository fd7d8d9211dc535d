import { zoneCreated, zoneDeleted, zoneUpdated } from '../../domain/record/device-record-events.js';
import type { RecordKind } from '../../domain/record/record-kind.js';

/** Zones form a tree inside one workspace: parentZone is the parent, children the direct children. */
export const zoneKind: RecordKind = {
  name: 'zone',
  label: 'Zone',
  table: 'zones',
  id: { field: 'id', type: 'string' },
  workspaceField: 'workspace',
  fields: {
    id: { column: 'id', type: 'string' },
    name: { column: 'name', type: 'string' },
    parentZoneId: { column: 'parent_zone_id', type: 'string', nullable: true, optional: true },
    workspace: { column: 'workspace', type: 'uuid' },
  },
  excluded: [],
  relations: {
    parentZone: {
      kind: () => zoneKind,
      cardinality: 'one',
      on: [
        ['parentZoneId', 'id'],
        ['workspace', 'workspace'],
      ],
    },
    children: {
      kind: () => zoneKind,
      cardinality: 'many',
      on: [
        ['id', 'parentZoneId'],
        ['workspace', 'workspace'],
      ],
    },
  },
  events: { created: zoneCreated, updated: zoneUpdated, deleted: zoneDeleted },
  rowTimestamps: { created: 'created_at', updated: 'updated_at' },
};
