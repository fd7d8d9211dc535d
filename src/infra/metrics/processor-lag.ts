import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

export type ProcessorLag = { name: string; position: number; lagEvents: number };

/** Counting stops here: a processor this far behind is reported as this far behind. */
export const maxCounted = 100_000;

/** Every processor's checkpoint (global position) and how many events of the log lie beyond it. */
export async function readProcessorLags(db: Executor): Promise<ProcessorLag[]> {
  const { rows } = await sql<{ name: string; position: string | number; lag: string | number }>`
    select c.name, c.global_position as position,
      (select count(*) from (
        select 1 from events e
        where (e.transaction_id, e.global_position) > (c.transaction_id, c.global_position)
        limit ${maxCounted}
      ) beyond) as lag
    from processor_checkpoints c
    order by c.name`.execute(db);
  return rows.map((row) => ({ name: row.name, position: Number(row.position), lagEvents: Number(row.lag) }));
}
