import type { Blackout } from '../blackout/blackout.js';
import type { OccupiedMs } from '../booking/occupied-range.js';
import { peakUnits, type UnitsHeld } from '../booking/unit-use.js';
import { quotaMatches, type Quota } from '../quota/quota.js';
import type { Resource } from '../resource/resource.js';
import type { ListedResource } from './listed-resource.js';

/** A policy key the search's create is admitted on (keyVerdict), in epoch milliseconds: the range it would occupy and the caller's limit on each resource. */
export type AdmittedKeyMs = { occupied: OccupiedMs; maxBookingsPerUser: number | null };

/** A live resource of the workspace with the key of its policy verdicts. */
export type KeyedResource = { resource: Resource; policyKey: string };

export type FreePageAsk = {
  /** The admitted keys by policy key: a resource of another key is refused by its policy. */
  keys: ReadonlyMap<string, AdmittedKeyMs>;
  units: number;
  limit: number;
  /** The blackouts in the way of the search's times (blackoutsInTheWay). */
  blackouts: readonly Blackout[];
  /** The quotas the search's create would exceed (exhaustedQuotas). */
  quotas: readonly Quota[];
  /** The caller's active bookings on a resource. */
  activeOfBooker: (resourceId: string) => number;
  /** The units held by the active bookings (series parents aside) of each resource, at least those sharing time with the keys' ranges (absent: none). */
  held: ReadonlyMap<string, readonly UnitsHeld[]>;
  /** The resources a resource shares its bookings with (contract §22, sharingOf). */
  sharing: ReadonlyMap<string, ReadonlySet<string>>;
};

export type FreePage = { total: number; free: ListedResource[] };

const none: readonly UnitsHeld[] = [];

function anyOverlaps(held: readonly UnitsHeld[], range: OccupiedMs): boolean {
  for (const h of held) if (h.startMs < range.endMs && range.startMs < h.endMs) return true;
  return false;
}

/**
 * Contract §16 for one window, after the create's verdict was decided once per policy key
 * (keyVerdict): of `candidates`, in the contract's order, those a create of the key's occupied range
 * would be accepted on — units enough, no blackout naming them, no exhausted quota matching them,
 * under the caller's limit, no held booking of one unit in the way (a pool: its peak plus the units
 * asked within its units), none of the resources it shares bookings with holding any — counted
 * (`total`), and the first `limit` of them with their free units.
 */
export function freePage(candidates: readonly KeyedResource[], ask: FreePageAsk): FreePage {
  if (ask.keys.size === 0 || ask.blackouts.some((b) => b.resourceIds === null)) return { total: 0, free: [] };
  const blacked = new Set(ask.blackouts.flatMap((b) => b.resourceIds ?? []));
  const free: ListedResource[] = [];
  let total = 0;
  for (const { resource, policyKey } of candidates) {
    const key = ask.keys.get(policyKey);
    if (!key || resource.units < ask.units || blacked.has(resource.id)) continue;
    if (ask.quotas.length > 0 && ask.quotas.some((quota) => quotaMatches(quota, resource))) continue;
    if (key.maxBookingsPerUser !== null && ask.activeOfBooker(resource.id) >= key.maxBookingsPerUser) continue;
    const availableUnits = unitsLeft(resource, key.occupied, ask);
    if (availableUnits < ask.units) continue;
    total++;
    if (free.length < ask.limit) free.push({ resource, availableUnits });
  }
  return { total, free };
}

/** The units of the resource free over the whole range (0 when a resource sharing its bookings holds any of it). */
function unitsLeft(resource: Resource, range: OccupiedMs, ask: FreePageAsk): number {
  const sharing = ask.sharing.get(resource.id);
  if (sharing) {
    for (const other of sharing) if (anyOverlaps(ask.held.get(other) ?? none, range)) return 0;
  }
  const own = ask.held.get(resource.id) ?? none;
  if (resource.units === 1) return anyOverlaps(own, range) ? 0 : 1;
  return Math.max(0, resource.units - peakUnits(own, range.startMs, range.endMs));
}
