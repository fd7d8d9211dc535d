import { deviceRecordAccess } from '../../domain/record/record-access.js';
import type { ResourceType } from '../../domain/resource/resource.js';
import { deviceKind } from '../../projections/record/device-kind.js';
import { zoneKind } from '../../projections/record/zone-kind.js';
import { renameRegistration } from './rename-resource.js';
import type { RecordKindConfig, RecordRules } from '../records/record-kind-config.js';
import { zoneRules } from './zone-rules.js';

/**
 * A renamed zone or device renames its bookable resource right after the record's own write. Should
 * that second append fail, the record's change stands and the next reconciliation round renames.
 */
const renamesItsResource =
  (kind: ResourceType): RecordRules['afterChange'] =>
  async (ctx, key, record, by) => {
    try {
      await renameRegistration(ctx, kind, key.workspace!, String(key.id), String(record.name), by);
    } catch (error) {
      ctx.logger.warn({ err: error, kind, key }, 'could not rename the bookable resource; reconciliation will');
    }
  };

export const devices: RecordKindConfig = { kind: deviceKind, rules: { afterChange: renamesItsResource('device') }, access: deviceRecordAccess };

export const zones: RecordKindConfig = { kind: zoneKind, rules: { ...zoneRules, afterChange: renamesItsResource('zone') }, access: deviceRecordAccess };
