import { sql, type Kysely } from 'kysely';
import type { RecordJson, RecordKind } from '../../../domain/record/record-kind.js';
import type { Executor } from '../../../infra/db/database.js';
import { columnOf } from '../record-columns.js';

/** The id of a record (in any workspace) whose fields hold these values, other than `exceptId`; null when there is none. */
export async function findRecordWith(db: Executor, kind: RecordKind, values: RecordJson, exceptId?: string | number): Promise<string | number | null> {
  const idColumn = columnOf(kind, kind.id.field);
  let query = (db as unknown as Kysely<any>).selectFrom(kind.table).select(sql.ref(idColumn).as('id'));
  for (const [field, value] of Object.entries(values)) query = query.where(columnOf(kind, field), '=', value);
  if (exceptId !== undefined) query = query.where(idColumn, '<>', exceptId);
  const row = await query.limit(1).executeTakeFirst();
  return row ? (row.id as string | number) : null;
}
