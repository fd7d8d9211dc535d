import { applicationStatusChanged, catalogRecordEvents } from '../../../domain/catalog/catalog-record-events.js';
import type { RecordKind } from '../../../domain/record/record-kind.js';
import { projectKind } from './project-kind.js';
import { publisherKind } from './publisher-kind.js';

/**
 * An uploaded application. The ZIP (`package`) stays in the table, never selected; the status and
 * the package's size and hash are the server's (the status moves through its own operation).
 */
export const applicationKind: RecordKind = {
  name: 'application',
  label: 'Application',
  table: 'applications',
  id: { field: 'id', type: 'number', sequence: 'applications_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    name: { column: 'name', type: 'string' },
    displayName: { column: 'display_name', type: 'string' },
    version: { column: 'version', type: 'string' },
    description: { column: 'description', type: 'string', nullable: true, optional: true },
    category: { column: 'category', type: 'string', nullable: true, optional: true },
    semVer: { column: 'sem_ver', type: 'string', nullable: true, optional: true },
    status: { column: 'status', type: 'string', readOnly: true, default: 'SUBMISSION' },
    projectId: { column: 'project_id', type: 'integer' },
    publisherId: { column: 'publisher_id', type: 'integer', nullable: true, optional: true },
    packageSize: { column: 'package_size', type: 'integer', nullable: true, readOnly: true, default: null },
    packageSha256: { column: 'package_sha256', type: 'string', nullable: true, readOnly: true, default: null },
    iconUrl: { column: 'icon_url', type: 'string', nullable: true, optional: true },
    screenshotUrls: { column: 'screenshot_urls', type: 'string[]', default: [] },
    createdAt: { column: 'created_at', type: 'timestamp', readOnly: true },
    updatedAt: { column: 'updated_at', type: 'timestamp', readOnly: true },
  },
  excluded: ['package'],
  relations: {
    project: { kind: () => projectKind, cardinality: 'one', on: [['projectId', 'id']] },
    publisher: { kind: () => publisherKind, cardinality: 'one', on: [['publisherId', 'id']] },
  },
  events: catalogRecordEvents.application,
  alsoUpdatedBy: [applicationStatusChanged],
  timestamps: { created: 'createdAt', updated: 'updatedAt' },
  keptColumns: ['package'],
};
