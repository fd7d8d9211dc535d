import { sql } from 'kysely';
import type { Database } from '../../src/infra/db/database.js';
import { projectors } from '../../src/projections/projectors.js';

/**
 * Every table a projector owns, whole rows in a stable order; without `changed_in` (migration
 * 0038), the transaction that wrote a booking row: a rebuild writes the same rows in another one.
 */
export async function snapshotOf(db: Database): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of projectors.flatMap((p) => p.tables)) {
    const { rows } = await sql<{ row: unknown }>`select to_jsonb(t) - 'changed_in' as row from ${sql.table(table)} as t order by (to_jsonb(t) - 'changed_in')::text`.execute(db);
    tables[table] = rows.map((r) => r.row);
  }
  return tables;
}
