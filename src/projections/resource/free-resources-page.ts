import { sql } from 'kysely';
import type { Blackout } from '../../domain/blackout/blackout.js';
import type { OccupiedRange } from '../../domain/booking/occupied-range.js';
import type { Quota } from '../../domain/quota/quota.js';
import type { ListedResource } from '../../domain/search/listed-resource.js';
import type { Executor } from '../../infra/db/database.js';
import { bookingOccupiedRangeSql } from '../booking/occupied-range-sql.js';
import { matchingResourcesSql, policyKeyOf, resourcesAt, type FreeResourceFilter } from './free-resource-candidates.js';

/** A policy key whose verdict admits the search's create, with the range it would occupy and the caller's limit on each resource. */
export type AdmittedKey = { policyKey: string; occupied: OccupiedRange; maxBookingsPerUser: number | null };

export type FreePageAsk = FreeResourceFilter & {
  keys: readonly AdmittedKey[];
  /** The caller whose active bookings count against maxBookingsPerUser. */
  booker: string;
  units: number;
  limit: number;
  /** The blackouts in the way of the search's times: those covering a resource refuse it. */
  blackouts: readonly Blackout[];
  /** The quotas the search's create would exceed: those matching a resource refuse it. */
  quotas: readonly Quota[];
};

export type FreePage = { total: number; free: ListedResource[] };

type PageRow = { id: string; stream_revision: string; total: string; available_units: number };

const held = sql.raw(`b.status in ('pending', 'confirmed') and not b.is_series_parent`);

/**
 * Contract §16 over `resources` in one statement: of the resources matching the filters whose
 * policy key is admitted, those a create of the key's occupied range would be accepted on (units
 * enough, under the caller's limit, no blackout naming them, no exhausted quota matching them, not
 * occupied), counted (`total`), and the first `limit` of them in the contract's order with their
 * free units. The occupation of a resource of one unit is the absence of its held bookings from
 * those of the workspace in the keys' ranges, read once through `bookings_held_by_workspace_range`
 * and hashed; a pool (`pool_peak_units`, migration 0031) and a whole or part (its sharing
 * resources, migration 0033), few, are asked one by one.
 */
export async function findFreePage(db: Executor, ask: FreePageAsk): Promise<FreePage> {
  if (ask.keys.length === 0 || ask.blackouts.some((b) => b.resourceIds === null)) return { total: 0, free: [] };
  const matching = matchingResourcesSql(ask);
  const starts = ask.keys.map((k) => k.occupied.start.toString());
  const ends = ask.keys.map((k) => k.occupied.end.toString());
  const from = ask.keys.reduce((min, k) => (k.occupied.start.epochMilliseconds < min.epochMilliseconds ? k.occupied.start : min), ask.keys[0]!.occupied.start);
  const to = ask.keys.reduce((max, k) => (k.occupied.end.epochMilliseconds > max.epochMilliseconds ? k.occupied.end : max), ask.keys[0]!.occupied.end);
  const blacked = ask.blackouts.flatMap((b) => b.resourceIds ?? []);
  const quotas = JSON.stringify(ask.quotas.map((q) => ({ type: q.resourceType ?? undefined, group: q.groupId ?? undefined, ids: q.resourceIds ?? undefined })));
  const { rows } = await sql<PageRow>`
    with recursive ${matching.subtree},
    keys (policy_key, s, e, max_per_user) as (
      select * from unnest(${ask.keys.map((k) => k.policyKey)}::text[], ${starts}::timestamptz[], ${ends}::timestamptz[], ${ask.keys.map((k) => k.maxBookingsPerUser)}::int[])),
    taken as materialized (
      select b.bookable_resource_id as resource, k.policy_key
      from bookings b join keys k on ${bookingOccupiedRangeSql('b')} && tstzrange(k.s, k.e)
      where b.workspace = ${ask.workspace}::uuid and ${held}
        and ${bookingOccupiedRangeSql('b')} && tstzrange(${from.toString()}::timestamptz, ${to.toString()}::timestamptz)),
    mine as materialized (
      select b.bookable_resource_id as resource, count(*) as active
      from bookings b where b.booker_profile_id = ${ask.booker} and ${held} group by 1),
    free as (
      select r.id, r.stream_revision, r.units, r.capacity, r.resource_name, k.s, k.e, count(*) over () as total
      from resources r join keys k on k.policy_key = ${policyKeyOf} left join mine m on m.resource = r.id
      where ${matching.where}
        and r.units >= ${ask.units}::int
        and not (r.id = any(${blacked}::uuid[]))
        and (k.max_per_user is null or coalesce(m.active, 0) < k.max_per_user)
        and (${quotas}::jsonb = '[]' or not exists (
          select 1 from jsonb_array_elements(${quotas}::jsonb) q
          where (not q ? 'type' or q->>'type' = r.resource_type) and (not q ? 'group' or q->>'group' = r.group_id) and (not q ? 'ids' or q->'ids' ? r.id::text)))
        and case when r.units = 1 then (r.id, k.policy_key) not in (select t.resource, t.policy_key from taken t)
          else pool_peak_units(r.id, tstzrange(k.s, k.e), null) + ${ask.units}::int <= r.units end
        and (not (r.id = any(array(select unnest(array[w.id] || w.parts) from resources w where w.workspace = ${ask.workspace}::uuid and w.parts is not null and w.deleted_at is null)))
          or not exists (select 1 from unnest(sharing_resources(r.id)) s (id) where exists (
            select 1 from bookings b where b.bookable_resource_id = s.id and ${held} and ${bookingOccupiedRangeSql('b')} && tstzrange(k.s, k.e))))
      order by r.capacity asc nulls last, r.resource_name collate "C", r.id
      limit ${ask.limit}::int)
    select f.id, f.stream_revision, f.total,
      case when f.units = 1 then 1 else greatest(0, f.units - pool_peak_units(f.id, tstzrange(f.s, f.e), null)) end as available_units
    from free f
    order by f.capacity asc nulls last, f.resource_name collate "C", f.id`.execute(db);
  const known = await resourcesAt(db, rows);
  const free = rows.flatMap((row) => {
    const atRevision = known.get(row.id);
    return atRevision ? [{ resource: atRevision.resource, availableUnits: row.available_units }] : [];
  });
  return { total: rows.length === 0 ? 0 : Number(rows[0]!.total), free };
}
