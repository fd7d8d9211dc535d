import { deviceRecordAccess } from '../../domain/records/record-access.js';
import { deviceKind } from '../../infra/records/device-kind.js';
import { zoneKind } from '../../infra/records/zone-kind.js';
import type { RecordKindConfig } from './record-kind-config.js';
import { zoneRules } from './zone-rules.js';

export const devices: RecordKindConfig = { kind: deviceKind, rules: {}, access: deviceRecordAccess };

export const zones: RecordKindConfig = { kind: zoneKind, rules: zoneRules, access: deviceRecordAccess };
