import { sql, type RawBuilder } from 'kysely';

/**
 * `insert into <table> (<columns>) select … from jsonb_populate_recordset(null::<table>, <rows>)`:
 * any number of rows in one statement, handed in as one JSON array (`rows`, a value or a hole of
 * sql-template.ts), each value cast to its column's type (a Date written by JSON.stringify is read
 * back to the millisecond). `replacing`: the key whose taken rows are replaced whole; the rows
 * must then carry that key once each.
 */
export function insertJsonRows(table: string, columns: readonly string[], rows: unknown, replacing?: string): RawBuilder<unknown> {
  const names = sql.join(columns.map((column) => sql.ref(column)));
  const insert = sql`insert into ${sql.table(table)} (${names})
    select ${names} from jsonb_populate_recordset(null::${sql.table(table)}, ${rows}::jsonb)`;
  if (!replacing) return insert;
  const changed = columns.filter((column) => column !== replacing).map((column) => sql`${sql.ref(column)} = excluded.${sql.ref(column)}`);
  return sql`${insert} on conflict (${sql.ref(replacing)}) do update set ${sql.join(changed)}`;
}
