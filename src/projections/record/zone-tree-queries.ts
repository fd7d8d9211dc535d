import { sql } from 'kysely';
import type { Executor } from '../../infra/db/database.js';
import { zoneTreeLockKey } from '../../infra/db/lock-keys.js';

/** Serialises changes to one workspace's zone tree, so that two re-parentings cannot close a cycle together. */
export async function lockZoneTree(trx: Executor, workspace: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${zoneTreeLockKey(workspace)}))`.execute(trx);
}

/** The zone and its ancestors up to the root (the zone first), or null when the zone does not exist. */
export async function zoneAndAncestors(db: Executor, workspace: string, zoneId: string): Promise<string[] | null> {
  const { rows } = await sql<{ id: string }>`
    with recursive chain (id, parent_zone_id, depth) as (
      select id, parent_zone_id, 1 from zones where workspace = ${workspace} and id = ${zoneId}
      union all
      select z.id, z.parent_zone_id, chain.depth + 1
      from zones z join chain on z.workspace = ${workspace} and z.id = chain.parent_zone_id
      where chain.depth < 10000
    )
    select id from chain order by depth`.execute(db);
  return rows.length === 0 ? null : rows.map((row) => row.id);
}

export async function hasChildZones(db: Executor, workspace: string, zoneId: string): Promise<boolean> {
  const row = await db.selectFrom('zones').select('id').where('workspace', '=', workspace).where('parent_zone_id', '=', zoneId).limit(1).executeTakeFirst();
  return row !== undefined;
}
