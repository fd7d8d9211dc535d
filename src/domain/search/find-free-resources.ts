import type { Temporal } from 'temporal-polyfill';
import { isGuest, type Principal } from '../access/principal.js';
import { isPlacementAccepted, type PolicyRefusal } from '../placement/placement-refusal.js';
import type { Blackout } from '../blackout/blackout.js';
import type { QuotaUsage } from '../quota/quota-usage.js';
import type { Resource } from '../resource/resource.js';
import { compareCandidates, type FreeResourceCandidate } from './free-resource-candidate.js';
import { listedResource, type ListedResource } from './listed-resource.js';
import { rememberedPolicyVerdicts } from './policy-verdicts.js';

export type FreeSearch = {
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  actor: Principal;
  now: Temporal.Instant;
  /** The workspace's quotas with the caller's usage in the period of the start (contract §17). */
  quotas: readonly QuotaUsage[];
  /** The workspace's blackouts around the searched times (contract §17). */
  blackouts: readonly Blackout[];
  /** The units a create would take (contract §21); one when absent. */
  units?: number;
};

/** Whether POST /bookings of [start, end) on the candidate would be accepted: the create's own verdict. */
export function isFreeFor(candidate: FreeResourceCandidate, search: FreeSearch, policyRefusal: PolicyRefusal, start = search.startTime, end = search.endTime): boolean {
  const state = { resource: candidate.resource, overlapping: candidate.bookings, activeBookingsOfBooker: candidate.activeBookingsOfBooker, quotas: search.quotas, blackouts: search.blackouts };
  // A guest (LV5) cannot book: the search skips what depends on the caller (contract §16).
  return isPlacementAccepted({ startTime: start, endTime: end, units: search.units }, state, search.actor, search.now, { policyRefusal, callerChecks: !isGuest(search.actor) });
}

export const policyVerdictsOf = (candidates: readonly FreeResourceCandidate[]): PolicyRefusal =>
  rememberedPolicyVerdicts(new Map(candidates.map((c) => [c.resource.id, c.policyKey])));

export type FreeResources = { free: ListedResource[]; taken: FreeResourceCandidate[] };

/** Every candidate a create of the search's times would be accepted on, in the contract's order, and the others. */
export function findFreeResources(candidates: readonly FreeResourceCandidate[], search: FreeSearch, policyRefusal = policyVerdictsOf(candidates)): FreeResources {
  const free: ListedResource[] = [];
  const taken: FreeResourceCandidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => compareCandidates(a.resource, b.resource))) {
    if (isFreeFor(candidate, search, policyRefusal)) free.push(listedResource(candidate, [{ start: search.startTime, end: search.endTime }]));
    else taken.push(candidate);
  }
  return { free, taken };
}
