import { sql } from 'kysely';
import type { Executor } from '../db/database.js';

/**
 * Remembers a remote zone's ancestors (parent first) for the free search's zone filter. A cache of
 * the device service's zone tree, not a fact of the booking log: written directly (no event),
 * refreshed by registration and reconciliation, never rebuilt from the log.
 */
export async function saveZoneAncestry(db: Executor, workspace: string, zoneId: string, ancestors: readonly string[]): Promise<void> {
  await sql`
    insert into zone_ancestry (workspace, zone_id, ancestors, refreshed_at)
    values (${workspace}::uuid, ${zoneId}, ${[...ancestors]}::text[], now())
    on conflict (workspace, zone_id) do update set ancestors = excluded.ancestors, refreshed_at = excluded.refreshed_at`.execute(db);
}
