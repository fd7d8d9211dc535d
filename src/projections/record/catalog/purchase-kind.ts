import { catalogRecordEvents } from '../../../domain/catalog/catalog-record-events.js';
import type { RecordKind } from '../../../domain/record/record-kind.js';
import { applicationKind } from './application-kind.js';

/** An application bought for a workspace; the only catalog kind scoped to workspaces. */
export const purchaseKind: RecordKind = {
  name: 'purchase',
  label: 'Purchase',
  table: 'purchases',
  id: { field: 'id', type: 'number', sequence: 'purchases_id_seq' },
  workspaceField: 'workspace',
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    workspace: { column: 'workspace', type: 'uuid' },
    applicationId: { column: 'application_id', type: 'integer' },
    purchasedBy: { column: 'purchased_by', type: 'string' },
    createdAt: { column: 'created_at', type: 'timestamp', readOnly: true },
    updatedAt: { column: 'updated_at', type: 'timestamp', readOnly: true },
  },
  excluded: [],
  relations: {
    application: { kind: () => applicationKind, cardinality: 'one', on: [['applicationId', 'id']] },
  },
  events: catalogRecordEvents.purchase,
  timestamps: { created: 'createdAt', updated: 'updatedAt' },
};
