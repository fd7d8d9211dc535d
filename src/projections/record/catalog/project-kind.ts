import { catalogRecordEvents } from '../../../domain/catalog/catalog-record-events.js';
import type { RecordKind } from '../../../domain/record/record-kind.js';
import { publisherKind } from './publisher-kind.js';

/** Announced before the first upload; publishing matches an upload to it by appName and appVersion. */
export const projectKind: RecordKind = {
  name: 'project',
  label: 'Project',
  table: 'projects',
  id: { field: 'id', type: 'number', sequence: 'projects_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    appName: { column: 'app_name', type: 'string' },
    appVersion: { column: 'app_version', type: 'string' },
    publisherId: { column: 'publisher_id', type: 'integer', nullable: true, optional: true },
    description: { column: 'description', type: 'string', nullable: true, optional: true },
    createdAt: { column: 'created_at', type: 'timestamp', readOnly: true },
    updatedAt: { column: 'updated_at', type: 'timestamp', readOnly: true },
  },
  excluded: [],
  relations: {
    publisher: { kind: () => publisherKind, cardinality: 'one', on: [['publisherId', 'id']] },
  },
  events: catalogRecordEvents.project,
  timestamps: { created: 'createdAt', updated: 'updatedAt' },
};
