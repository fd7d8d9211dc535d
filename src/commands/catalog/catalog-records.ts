import { platformRecordAccess } from '../../domain/catalog/catalog-access.js';
import { deviceRecordAccess } from '../../domain/record/record-access.js';
import { applicationKind } from '../../projections/record/catalog/application-kind.js';
import { projectKind } from '../../projections/record/catalog/project-kind.js';
import { publisherKind } from '../../projections/record/catalog/publisher-kind.js';
import { purchaseKind } from '../../projections/record/catalog/purchase-kind.js';
import type { RecordKindConfig } from '../records/record-kind-config.js';
import { catalogRules } from './catalog-rules.js';

export const publishers: RecordKindConfig = {
  kind: publisherKind,
  rules: catalogRules(publisherKind, {
    references: [],
    unique: [['email']],
    dependents: [
      { kind: projectKind, field: 'publisherId', what: 'projects' },
      { kind: applicationKind, field: 'publisherId', what: 'applications' },
    ],
  }),
  access: platformRecordAccess,
};

export const projects: RecordKindConfig = {
  kind: projectKind,
  rules: catalogRules(projectKind, {
    references: [{ field: 'publisherId', kind: publisherKind }],
    unique: [['appName', 'appVersion']],
    dependents: [{ kind: applicationKind, field: 'projectId', what: 'applications' }],
  }),
  access: platformRecordAccess,
};

export const applications: RecordKindConfig = {
  kind: applicationKind,
  rules: catalogRules(applicationKind, {
    references: [
      { field: 'projectId', kind: projectKind },
      { field: 'publisherId', kind: publisherKind },
    ],
    unique: [['name', 'version']],
    dependents: [{ kind: purchaseKind, field: 'applicationId', what: 'purchases' }],
  }),
  access: platformRecordAccess,
};

/** Purchases are the workspace's own: reads LV5+, writes LV2+ in the workspace, LV1 anywhere. */
export const purchases: RecordKindConfig = {
  kind: purchaseKind,
  rules: catalogRules(purchaseKind, { references: [{ field: 'applicationId', kind: applicationKind }], unique: [], dependents: [] }),
  access: deviceRecordAccess,
};
