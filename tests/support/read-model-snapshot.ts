import { sql } from 'kysely';
import type { Database } from '../../src/infra/db/database.js';
import { projectors } from '../../src/projections/projectors.js';

/**
 * One table's rows, whole and in a stable order, without `changed_in` (migration 0038): the
 * transaction that wrote a booking row, which a rebuild writes again in another one.
 */
export async function tableSnapshot(db: Database, table: string): Promise<unknown[]> {
  const { rows } = await sql<{ row: unknown }>`select to_jsonb(t) - 'changed_in' as row from ${sql.table(table)} as t order by (to_jsonb(t) - 'changed_in')::text`.execute(db);
  return rows.map((r) => r.row);
}

/** Every table a projector owns, as tableSnapshot reads it. */
export async function snapshotOf(db: Database): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of projectors.flatMap((p) => p.tables)) tables[table] = await tableSnapshot(db, table);
  return tables;
}
