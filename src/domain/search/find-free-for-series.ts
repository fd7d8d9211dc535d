import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { createRefusal, type PolicyRefusal } from '../booking/create-refusal.js';
import { admitSeries, decideCreateSeries, type CreateSeries, type CreateSeriesState } from '../booking/series/decide-create-series.js';
import { DomainError } from '../domain-error.js';
import type { Blackout } from '../blackout/blackout.js';
import type { QuotaLedger } from '../quota/quota-refusal.js';
import type { Resource } from '../resource/resource.js';
import { compareCandidates, type FreeResourceCandidate } from './free-resource-candidate.js';

export type UnavailableOccurrence = { startTime: Temporal.Instant; endTime: Temporal.Instant; reason: string };
export type PartlyFree = { resource: Resource; unavailableOccurrences: UnavailableOccurrence[] };
export type FreeForSeries = { free: Resource[]; partlyFree: PartlyFree[] };

/** The name a refusal is told by: the policy's own name, `conflict`, else its code. */
export const refusalReason = (refusal: DomainError): string =>
  refusal.details.policy ?? (refusal.code === 'booking_conflict' ? 'conflict' : refusal.code);

/** A guest (LV5) cannot book: the search decides as for a user and skips what depends on the caller (contract §16). */
const deciderOf = (actor: Principal): Principal => (actor.level === 5 ? { ...actor, level: 4 } : actor);

/** Refusals of the request whatever the resource (the rule, the zone, too many occurrences) answer 400. */
function rethrowRequestFault(error: unknown): void {
  if (!(error instanceof DomainError)) throw error;
  if (error.code === 'invalid_request') throw error;
}

function unavailableOccurrences(candidate: FreeResourceCandidate, state: CreateSeriesState, command: CreateSeries, actor: Principal, now: Temporal.Instant, policyRefusal: PolicyRefusal): UnavailableOccurrence[] | null {
  let occurrences;
  try {
    ({ occurrences } = admitSeries(command, state, actor, now));
  } catch (error) {
    rethrowRequestFault(error);
    return null;
  }
  const unavailable: UnavailableOccurrence[] = [];
  for (const { start, end } of occurrences) {
    // Quotas add up over the series as a whole: an occurrence alone is told only by the resource's own checks.
    const occurrenceState = { ...state, overlapping: candidate.bookings, quotas: [] };
    const refusal = createRefusal({ startTime: start, endTime: end }, occurrenceState, actor, now, { policyRefusal, callerChecks: false });
    if (refusal) unavailable.push({ startTime: start, endTime: end, reason: refusalReason(refusal) });
  }
  return unavailable.length > 0 && unavailable.length < occurrences.length ? unavailable : null;
}

/**
 * Contract §16 with a rule: a resource is free when POST /bookings/bulk of the series would be
 * accepted on it (decideCreateSeries itself decides); with `includePartial`, the resources where
 * some but not all occurrences would be refused follow, each with those occurrences and the first
 * check they fail, fewest first. A resource refusing the series as a whole is never listed.
 */
export function findFreeForSeries(
  candidates: readonly FreeResourceCandidate[],
  command: CreateSeries,
  actor: Principal,
  now: Temporal.Instant,
  options: { includePartial: boolean; policyRefusal: PolicyRefusal; quotaLedger: QuotaLedger; blackouts: readonly Blackout[] },
): FreeForSeries {
  const decider = deciderOf(actor);
  const free: Resource[] = [];
  const partlyFree: PartlyFree[] = [];
  for (const candidate of [...candidates].sort((a, b) => compareCandidates(a.resource, b.resource))) {
    const state: CreateSeriesState = {
      resource: candidate.resource,
      overlapping: candidate.bookings,
      activeBookingsOfBooker: actor.level === 5 ? 0 : candidate.activeBookingsOfBooker,
      quotaLedger: options.quotaLedger,
      blackouts: options.blackouts,
    };
    try {
      decideCreateSeries(command, state, decider, now);
      free.push(candidate.resource);
      continue;
    } catch (error) {
      rethrowRequestFault(error);
    }
    if (!options.includePartial) continue;
    const unavailable = unavailableOccurrences(candidate, state, command, decider, now, options.policyRefusal);
    if (unavailable) partlyFree.push({ resource: candidate.resource, unavailableOccurrences: unavailable });
  }
  // A stable sort keeps the resources' order among equals.
  partlyFree.sort((a, b) => a.unavailableOccurrences.length - b.unavailableOccurrences.length);
  return { free, partlyFree };
}
