import { sql } from 'kysely';
import type { Database } from '../../src/infra/db/database.js';
import { projectors } from '../../src/projections/projectors.js';

/** Every table a projector owns, whole rows in a stable order. */
export async function snapshotOf(db: Database): Promise<Record<string, unknown[]>> {
  const tables: Record<string, unknown[]> = {};
  for (const table of projectors.flatMap((p) => p.tables)) {
    const { rows } = await sql<{ row: unknown }>`select to_jsonb(t) as row from ${sql.table(table)} as t order by to_jsonb(t)::text`.execute(db);
    tables[table] = rows.map((r) => r.row);
  }
  return tables;
}
