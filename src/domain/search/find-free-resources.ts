import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Booking } from '../booking/booking.js';
import { buffersOf, occupiedMsOf } from '../booking/occupied-range.js';
import { createRefusal, type PolicyRefusal } from '../booking/create-refusal.js';
import type { QuotaUsage } from '../quota/quota-usage.js';
import type { Resource } from '../resource/resource.js';
import { compareCandidates, type FreeResourceCandidate } from './free-resource-candidate.js';
import { rememberedPolicyVerdicts } from './policy-verdicts.js';

export type FreeSearch = {
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  actor: Principal;
  now: Temporal.Instant;
  /** The workspace's quotas with the caller's usage in the period of the start (contract §17). */
  quotas: readonly QuotaUsage[];
};

/**
 * The bookings of `bookings` whose occupied ranges share time with that of a booking of
 * [start, end) on `resource` (its buffers in force): what the create's state needs of them.
 */
export function bookingsNear(bookings: readonly Booking[], resource: Resource, start: Temporal.Instant, end: Temporal.Instant): Booking[] {
  const { bufferBeforeMinutes, bufferAfterMinutes } = buffersOf(resource);
  const startMs = start.epochMilliseconds - bufferBeforeMinutes * 60_000;
  const endMs = end.epochMilliseconds + bufferAfterMinutes * 60_000;
  return bookings.filter((b) => {
    const held = occupiedMsOf(b);
    return held.startMs < endMs && held.endMs > startMs;
  });
}

/** Decides, for one candidate, the create of [start, end) exactly as POST /bookings would. */
export function candidateVerdict(candidate: FreeResourceCandidate, search: FreeSearch, policyRefusal: PolicyRefusal, start = search.startTime, end = search.endTime) {
  const state = {
    resource: candidate.resource,
    overlapping: bookingsNear(candidate.bookings, candidate.resource, start, end),
    activeBookingsOfBooker: candidate.activeBookingsOfBooker,
    quotas: search.quotas,
  };
  // A guest (LV5) cannot book: the search skips what depends on the caller (contract §16).
  return createRefusal({ startTime: start, endTime: end }, state, search.actor, search.now, { policyRefusal, callerChecks: search.actor.level !== 5 });
}

export const policyVerdictsOf = (candidates: readonly FreeResourceCandidate[]): PolicyRefusal =>
  rememberedPolicyVerdicts(new Map(candidates.map((c) => [c.resource.id, c.policyKey])));

export type FreeResources = { free: Resource[]; taken: FreeResourceCandidate[] };

/** Every candidate a create of the search's times would be accepted on, in the contract's order, and the others. */
export function findFreeResources(candidates: readonly FreeResourceCandidate[], search: FreeSearch, policyRefusal = policyVerdictsOf(candidates)): FreeResources {
  const free: Resource[] = [];
  const taken: FreeResourceCandidate[] = [];
  for (const candidate of [...candidates].sort((a, b) => compareCandidates(a.resource, b.resource))) {
    if (candidateVerdict(candidate, search, policyRefusal) === null) free.push(candidate.resource);
    else taken.push(candidate);
  }
  return { free, taken };
}
