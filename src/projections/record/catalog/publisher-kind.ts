import { catalogRecordEvents } from '../../../domain/catalog/catalog-record-events.js';
import type { RecordKind } from '../../../domain/record/record-kind.js';

/** A publisher of applications; the OAuth identity it signs in with never leaves the table. */
export const publisherKind: RecordKind = {
  name: 'publisher',
  label: 'Publisher',
  table: 'publishers',
  id: { field: 'id', type: 'number', sequence: 'publishers_id_seq' },
  fields: {
    id: { column: 'id', type: 'integer', readOnly: true },
    email: { column: 'email', type: 'string' },
    name: { column: 'name', type: 'string', nullable: true, optional: true },
    verified: { column: 'verified', type: 'boolean', default: false },
    createdAt: { column: 'created_at', type: 'timestamp', readOnly: true },
    updatedAt: { column: 'updated_at', type: 'timestamp', readOnly: true },
  },
  excluded: ['oauthProvider', 'oauthSubject'],
  relations: {},
  events: catalogRecordEvents.publisher,
  timestamps: { created: 'createdAt', updated: 'updatedAt' },
  keptColumns: ['oauth_provider', 'oauth_subject'],
};
