import type { Database } from '../../src/infra/db/database.js';

/** The projections runner's stored checkpoint, as an EventStoreDB `$all` position. */
export async function projectionsCheckpointOnAll(db: Database): Promise<{ commit: bigint; prepare: bigint }> {
  const row = await db.selectFrom('processor_checkpoints').select(['transaction_id', 'global_position']).where('name', '=', 'projections').executeTakeFirstOrThrow();
  return { commit: BigInt(String(row.transaction_id)), prepare: BigInt(String(row.global_position)) };
}
