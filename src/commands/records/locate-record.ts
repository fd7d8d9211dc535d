import { invalidRequest, notFound } from '../../domain/domain-error.js';
import type { RecordScope } from '../../domain/record/record-access.js';
import type { RecordJson, RecordKind } from '../../domain/record/record-kind.js';
import type { ReadQuery } from '../../domain/record/record-query.js';
import type { Executor } from '../../infra/db/database.js';
import { selectRecordsById } from '../../projections/record/select-records.js';

const wholeRecord: ReadQuery = { fields: null, joins: [] };

/** The one record with this id in the caller's scope: 404 when there is none, 400 when the id is in several workspaces. */
export async function locateRecord(db: Executor, kind: RecordKind, scope: RecordScope, id: string | number, query = wholeRecord): Promise<RecordJson> {
  const found = await selectRecordsById(db, kind, scope, id, query);
  if (found.length === 0) throw notFound(kind.label);
  if (found.length > 1) {
    throw invalidRequest(`${kind.label} '${id}' exists in several workspaces: name one with the X-Workspace header`, 'X-Workspace');
  }
  return found[0]!;
}
