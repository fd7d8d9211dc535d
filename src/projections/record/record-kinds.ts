import type { RecordKind } from '../../domain/record/record-kind.js';
import { applicationKind } from '../../infra/records/catalog/application-kind.js';
import { projectKind } from '../../infra/records/catalog/project-kind.js';
import { publisherKind } from '../../infra/records/catalog/publisher-kind.js';
import { purchaseKind } from '../../infra/records/catalog/purchase-kind.js';
import { deviceKind } from '../../infra/records/device-kind.js';
import { zoneKind } from '../../infra/records/zone-kind.js';

/** Every record kind, a table referred to after the tables it refers to. */
export const recordKinds: readonly RecordKind[] = [zoneKind, deviceKind, publisherKind, projectKind, applicationKind, purchaseKind];
