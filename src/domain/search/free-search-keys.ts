import { isGuest } from '../access/principal.js';
import { isInTheWay } from '../booking/blackout-refusal.js';
import { placementRefusal, type PolicyRefusal } from '../placement/placement-refusal.js';
import { buffersOf, occupiedRange, type OccupiedRange } from '../booking/occupied-range.js';
import { isExhaustedFor } from '../quota/quota-refusal.js';
import type { Blackout } from '../blackout/blackout.js';
import type { Quota } from '../quota/quota.js';
import type { Resource } from '../resource/resource.js';
import type { FreeSearch } from './find-free-resources.js';
import type { AdmittedKeyMs, KeyedResource } from './free-page.js';
import { rememberedPolicyVerdicts } from './policy-verdicts.js';

/**
 * What a search's create decides alike on every resource of one policy key (equal isActive,
 * bookingPolicy and availability): admitted or not, the range a booking would occupy (the key's
 * buffers) and the caller's limit of active bookings on each resource (null: none, or a guest).
 */
export type KeyVerdict = { admitted: boolean; occupied: OccupiedRange; maxBookingsPerUser: number | null };

/**
 * placementRefusal itself on a resource of the key with nothing of its own in the way: no booking,
 * blackout or quota, none of the caller's bookings, and units enough. The rest of the verdict is
 * per resource (the free page's statement): its units, its occupation of `occupied`, the caller's
 * count against `maxBookingsPerUser`, the blackouts naming it and the exhausted quotas matching it.
 */
export function keyVerdict(representative: Resource, search: FreeSearch, policyRefusal: PolicyRefusal): KeyVerdict {
  const callerChecks = !isGuest(search.actor);
  const units = search.units ?? 1;
  const neutral = { resource: { ...representative, units: Math.max(representative.units, units) }, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
  const refusal = placementRefusal({ startTime: search.startTime, endTime: search.endTime, units }, neutral, search.actor, search.now, { policyRefusal, callerChecks });
  return {
    admitted: refusal === null,
    occupied: occupiedRange(search.startTime, search.endTime, buffersOf(representative)),
    maxBookingsPerUser: callerChecks ? representative.bookingPolicy.maxBookingsPerUser : null,
  };
}

/** The quotas a create of the search's times refuses on every resource they match (none for a guest: contract §16). */
export const exhaustedQuotas = (search: FreeSearch): Quota[] =>
  isGuest(search.actor) ? [] : search.quotas.filter((usage) => isExhaustedFor(usage, search.startTime, search.endTime));

/** The blackouts a create of the search's times meets on every resource they cover. */
export const blackoutsInTheWay = (search: FreeSearch): Blackout[] => search.blackouts.filter((blackout) => isInTheWay(blackout, search.startTime, search.endTime));

/** Each policy key among the candidates with one of its resources, the first by id: what the create decides alike on all of a key's resources is decided once on it. */
export function keysOf(candidates: readonly KeyedResource[]): KeyedResource[] {
  const first = new Map<string, KeyedResource>();
  for (const candidate of candidates) {
    const known = first.get(candidate.policyKey);
    if (!known || candidate.resource.id < known.resource.id) first.set(candidate.policyKey, candidate);
  }
  return [...first.values()];
}

/** The policy keys whose verdict (the create's, decided once per key) admits the search's create, by key. */
export function admittedKeys(keys: readonly KeyedResource[], search: FreeSearch): Map<string, AdmittedKeyMs> {
  const policyRefusal = rememberedPolicyVerdicts(new Map(keys.map((k) => [k.resource.id, k.policyKey])));
  const admitted = new Map<string, AdmittedKeyMs>();
  for (const { policyKey, resource } of keys) {
    const verdict = keyVerdict(resource, search, policyRefusal);
    if (!verdict.admitted) continue;
    const occupied = { startMs: verdict.occupied.start.epochMilliseconds, endMs: verdict.occupied.end.epochMilliseconds };
    admitted.set(policyKey, { occupied, maxBookingsPerUser: verdict.maxBookingsPerUser });
  }
  return admitted;
}
