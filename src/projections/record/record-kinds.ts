import type { RecordKind } from '../../domain/record/record-kind.js';
import { applicationKind } from './catalog/application-kind.js';
import { projectKind } from './catalog/project-kind.js';
import { publisherKind } from './catalog/publisher-kind.js';
import { purchaseKind } from './catalog/purchase-kind.js';
import { deviceKind } from './device-kind.js';
import { zoneKind } from './zone-kind.js';

/** Every record kind, a table referred to after the tables it refers to. */
export const recordKinds: readonly RecordKind[] = [zoneKind, deviceKind, publisherKind, projectKind, applicationKind, purchaseKind];
