import { releasedCondition } from '../../../domain/catalog/application-status.js';
import { catalogRecordEvents } from '../../../domain/catalog/catalog-record-events.js';
import type { RecordKind } from '../../../domain/records/record-kind.js';
import { applicationKind } from './application-kind.js';

/** An application's place in the marketplace, shown only while the application is released. */
export const marketplaceEntryKind: RecordKind = {
  name: 'marketplace-entry',
  label: 'Marketplace entry',
  table: 'marketplace_entries',
  id: { field: 'id', type: 'number', sequence: 'marketplace_entries_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    applicationId: { column: 'application_id', type: 'integer' },
    featured: { column: 'featured', type: 'boolean', default: false },
    tagline: { column: 'tagline', type: 'string', nullable: true, optional: true },
    createdAt: { column: 'created_at', type: 'timestamp', readOnly: true },
    updatedAt: { column: 'updated_at', type: 'timestamp', readOnly: true },
  },
  excluded: [],
  relations: {
    application: { kind: () => applicationKind, cardinality: 'one', on: [['applicationId', 'id']] },
  },
  events: catalogRecordEvents.marketplaceEntry,
  timestamps: { created: 'createdAt', updated: 'updatedAt' },
  visibleWhen: releasedCondition('application'),
};
