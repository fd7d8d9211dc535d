import { sql } from 'kysely';
import type { ResourceType } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';

/** A bookable resource as a CalDAV principal (contract §25). */
export type ResourcePrincipal = {
  id: string;
  workspace: string;
  resourceType: ResourceType;
  /** resourceName, else the zone or device id (as the feeds name it). */
  name: string;
  units: number;
  capacity: number | null;
  /** The zone of its operating hours, null without hours. */
  timeZone: string | null;
};

type Row = { id: string; workspace: string; resource_type: ResourceType; name: string; units: number; capacity: number | null; time_zone: string | null };

const toPrincipal = (row: Row): ResourcePrincipal => ({
  id: row.id,
  workspace: row.workspace,
  resourceType: row.resource_type,
  name: row.name,
  units: row.units,
  capacity: row.capacity,
  timeZone: row.time_zone,
});

const columns = sql`id, workspace, resource_type, coalesce(resource_name, resource_id) as name, units, capacity, availability->>'timeZone' as time_zone`;

/** Active, not removed: inactive resources are not principals. */
const live = sql`is_active and deleted_at is null`;

/** One live, active resource by id (any workspace: the caller's sight is checked by the router). */
export async function findResourcePrincipal(db: Executor, id: string): Promise<ResourcePrincipal | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  const { rows } = await sql<Row>`select ${columns} from resources where id = ${id}::uuid and ${live}`.execute(db);
  return rows[0] ? toPrincipal(rows[0]) : null;
}

/**
 * The live, active resources of a workspace (of all when `workspace` is null: LV1 without one),
 * by name, at most `limit`.
 */
export async function listResourcePrincipals(db: Executor, workspace: string | null, limit: number): Promise<ResourcePrincipal[]> {
  const { rows } = await sql<Row>`
    select ${columns} from resources
    where ${live} ${workspace === null ? sql`` : sql`and workspace = ${workspace}::uuid`}
    order by coalesce(resource_name, resource_id), id
    limit ${limit}`.execute(db);
  return rows.map(toPrincipal);
}
