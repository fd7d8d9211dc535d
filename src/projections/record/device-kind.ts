import { deviceCreated, deviceDeleted, deviceUpdated } from '../../domain/record/device-record-events.js';
import type { RecordKind } from '../../domain/record/record-kind.js';

/** Spec 2.1 devices, unique per workspace; the API key hash never leaves the table. */
export const deviceKind: RecordKind = {
  name: 'device',
  label: 'Device',
  table: 'devices',
  id: { field: 'id', type: 'string' },
  workspaceField: 'workspace',
  fields: {
    id: { column: 'id', type: 'string' },
    shortName: { column: 'short_name', type: 'string' },
    name: { column: 'name', type: 'string' },
    type: { column: 'type', type: 'string' },
    visible: { column: 'visible', type: 'boolean' },
    extra: { column: 'extra', type: 'object' },
    decoder: { column: 'decoder', type: 'string' },
    extName: { column: 'ext_name', type: 'string' },
    enableAlert: { column: 'enable_alert', type: 'boolean' },
    timeout: { column: 'timeout', type: 'number' },
    stateRef: { column: 'state_ref', type: 'string[]' },
    workspace: { column: 'workspace', type: 'uuid' },
  },
  excluded: ['apiKeyHash'],
  relations: {},
  events: { created: deviceCreated, updated: deviceUpdated, deleted: deviceDeleted },
  rowTimestamps: { created: 'created_at', updated: 'updated_at' },
  keptColumns: ['api_key_hash'],
  reservedIds: ['self'],
};
