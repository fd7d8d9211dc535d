import { sql, type Kysely } from 'kysely';
import type { RecordJson, RecordKey, RecordKind } from '../../domain/record/record-kind.js';
import type { Executor } from '../../infra/db/database.js';
import { columnOf } from './record-columns.js';
import { columnValuesOf } from './record-json.js';

type AnyDb = Kysely<any>;

/**
 * `at` is the write's time (the event's), so that a rebuild writes the same row. `ifAbsent`: a row
 * already there under the record's key is left as it is (a follower meeting a row its write's own
 * transaction wrote); any other constraint still fails.
 */
export async function insertRecordRow(db: Executor, kind: RecordKind, record: RecordJson, at?: string, options: { ifAbsent?: boolean } = {}): Promise<void> {
  const values = columnValuesOf(kind, record);
  if (kind.rowTimestamps && at) values[kind.rowTimestamps.created] = values[kind.rowTimestamps.updated] = at;
  await (db as unknown as AnyDb)
    .insertInto(kind.table)
    .values(values)
    .$if(Boolean(options.ifAbsent), (q) => q.onConflict((oc) => oc.columns(keyColumnsOf(kind)).doNothing()))
    .execute();
}

/** The columns of the record's key: its table's primary key. */
export function keyColumnsOf(kind: RecordKind): string[] {
  const id = columnOf(kind, kind.id.field);
  return kind.workspaceField ? [columnOf(kind, kind.workspaceField), id] : [id];
}

export async function updateRecordRow(db: Executor, kind: RecordKind, key: RecordKey, record: RecordJson, at: string): Promise<void> {
  const values = columnValuesOf(kind, record);
  if (kind.rowTimestamps) values[kind.rowTimestamps.updated] = at;
  await whereKey((db as unknown as AnyDb).updateTable(kind.table).set(values), kind, key).execute();
}

export async function deleteRecordRow(db: Executor, kind: RecordKind, key: RecordKey): Promise<void> {
  await whereKey((db as unknown as AnyDb).deleteFrom(kind.table), kind, key).execute();
}

function whereKey<Q extends { where: (column: string, op: '=', value: unknown) => Q }>(query: Q, kind: RecordKind, key: RecordKey): Q {
  const byId = query.where(columnOf(kind, kind.id.field), '=', key.id);
  return kind.workspaceField ? byId.where(columnOf(kind, kind.workspaceField), '=', key.workspace) : byId;
}

/** The next id of a kind whose ids the server chooses. */
export async function nextRecordId(db: Executor, sequence: string): Promise<number> {
  const { rows } = await sql<{ id: string | number }>`select nextval(${sequence}::regclass) as id`.execute(db);
  return Number(rows[0]!.id);
}
