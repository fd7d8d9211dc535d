import { sql, type RawBuilder } from 'kysely';
import type { Resource, ResourceType } from '../../domain/resource/resource.js';
import type { Holes } from '../../infra/db/sql-template.js';

export type FreeResourceFilter = {
  workspace: string;
  resourceType?: ResourceType;
  minCapacity?: number;
  /** Zone resources of this zone or of a zone under it (the service's own zone tree, followed at query time). */
  zoneId?: string;
  groupId?: string;
};

/**
 * The filters but the zone's, in this process: matchingResourcesSql's twin for a live resource of
 * the workspace (the zone tree is the database's: findMatchingIds).
 */
export const matchesFilter = (resource: Resource, filter: FreeResourceFilter): boolean =>
  (filter.resourceType === undefined || resource.resourceType === filter.resourceType) &&
  (filter.minCapacity === undefined || (resource.capacity !== null && resource.capacity >= filter.minCapacity)) &&
  (filter.groupId === undefined || resource.groupId === filter.groupId);

/** The filters as the values of a statement compiled once: absent ones are null. */
export type FilterArgs = { workspace: string; resourceType: string | null; minCapacity: number | null; groupId: string | null; zone: string | null };

export const filterArgs = (filter: FreeResourceFilter): FilterArgs => ({
  workspace: filter.workspace,
  resourceType: filter.resourceType ?? null,
  minCapacity: filter.minCapacity ?? null,
  groupId: filter.groupId ?? null,
  zone: filter.zoneId ?? null,
});

/**
 * The filters of a search over `resources r`, written with holes (a statement compiled once, sent
 * by name: parsed and planned once per connection): `subtree` is the recursive CTE of the zone's
 * subtree (a statement begins `with recursive ${subtree}`), `where` the condition. The zone filter
 * walks the service's own zone tree down from the zone, so a zone moved under another parent moves
 * its resources at once; a remote device service's zones match by the ancestors remembered at
 * registration and refreshed by each reconciliation.
 */
export function matchingResourcesSql(p: Holes<FilterArgs>): { subtree: RawBuilder<unknown>; where: RawBuilder<unknown> } {
  return {
    subtree: sql`subtree (id, depth) as (
      select ${p.zone}::text, 0 where ${p.zone}::text is not null
      union all
      select z.id, s.depth + 1 from zones z join subtree s on z.workspace = ${p.workspace}::uuid and z.parent_zone_id = s.id
      where s.depth < 1000
    )`,
    where: sql`r.workspace = ${p.workspace}::uuid and r.deleted_at is null
      and (${p.resourceType}::text is null or r.resource_type = ${p.resourceType}::text)
      and (${p.minCapacity}::int is null or r.capacity >= ${p.minCapacity}::int)
      and (${p.groupId}::text is null or r.group_id = ${p.groupId}::text)
      and (${p.zone}::text is null or (r.resource_type = 'zone' and (r.resource_id in (select id from subtree) or exists (
        select 1 from zone_ancestry za where za.workspace = r.workspace and za.zone_id = r.resource_id and za.ancestors @> array[${p.zone}::text]))))`,
  };
}
