import type { Temporal } from 'temporal-polyfill';
import { isGuest, searchingAs, type Principal } from '../access/principal.js';
import type { Blackout } from '../blackout/blackout.js';
import { askedOf, placementRefusal, type PolicyRefusal } from '../placement/placement-refusal.js';
import { unitsFit } from '../booking/find-conflicts.js';
import { buffersOf, occupiedMs } from '../booking/occupied-range.js';
import { admitSeries, assertSeriesRequest, isAdmittedSeriesAccepted, type CreateSeries, type CreateSeriesState, type SeriesDecisionOptions } from '../booking/series/decide-create-series.js';
import { seriesOccurrences } from '../booking/series/series-pattern.js';
import { DomainError } from '../domain-error.js';
import type { Occurrence } from '../recurrence/index.js';
import type { QuotaLedger } from '../quota/quota-refusal.js';
import type { Resource } from '../resource/resource.js';
import { compareCandidates, type FreeResourceCandidate } from './free-resource-candidate.js';
import { listedResource, type ListedResource } from './listed-resource.js';

export type UnavailableOccurrence = { startTime: Temporal.Instant; endTime: Temporal.Instant; reason: string };
export type PartlyFree = { resource: Resource; unavailableOccurrences: UnavailableOccurrence[] };
export type FreeForSeries = { free: ListedResource[]; partlyFree: PartlyFree[] };

/** The name a refusal is told by: the policy's own name, `conflict`, else its code. */
export const refusalReason = (refusal: DomainError): string =>
  refusal.details.policy ?? (refusal.code === 'booking_conflict' ? 'conflict' : refusal.code);

/** Refusals of the request whatever the resource (the rule, the zone, too many occurrences) answer 400. */
function rethrowRequestFault(error: unknown): void {
  if (!(error instanceof DomainError)) throw error;
  if (error.code === 'invalid_request') throw error;
}

/**
 * seriesOccurrences remembered by what it is a function of besides the request: the series' zone
 * and the resource's horizon (maxAdvanceDays). A refusal is remembered too.
 */
function rememberedExpansions(): typeof seriesOccurrences {
  const expansions = new Map<string, { occurrences: Occurrence[] } | { error: unknown }>();
  return (pattern, resource, now) => {
    const key = `${pattern.timeZone}|${resource.bookingPolicy.maxAdvanceDays}`;
    let expansion = expansions.get(key);
    if (!expansion) {
      try {
        expansion = { occurrences: seriesOccurrences(pattern, resource, now) };
      } catch (error) {
        expansion = { error };
      }
      expansions.set(key, expansion);
    }
    if ('error' in expansion) throw expansion.error;
    return expansion.occurrences;
  };
}

/** Whether the asked units do not fit beside the candidate's bookings at an occurrence: the last check refuses the series then, whatever the others say. */
function anyOccurrenceTaken(candidate: FreeResourceCandidate, occurrences: readonly Occurrence[], units: number | undefined): boolean {
  if (candidate.bookings.length === 0) return false;
  const buffers = buffersOf(candidate.resource);
  const asked = askedOf({ units }, candidate.resource);
  return occurrences.some(({ start, end }) => {
    const occupied = occupiedMs(start.epochMilliseconds, end.epochMilliseconds, buffers);
    return !unitsFit(candidate.bookings, occupied.startMs, occupied.endMs, asked);
  });
}

/**
 * The occurrences a create would refuse, each with its first failing check, when some but not all
 * are (else null). Occurrences count towards maxBookingsPerUser in order (contract §6): the n-th is
 * decided with the booker's active bookings plus the n − 1 before it, as the dry run tells it.
 * Quotas add up over the series as a whole: an occurrence alone is not told by them.
 */
function unavailableOccurrences(
  occurrences: readonly Occurrence[],
  state: CreateSeriesState,
  actor: Principal,
  now: Temporal.Instant,
  options: { policyRefusal: PolicyRefusal; callerChecks: boolean },
  units: number | undefined,
): UnavailableOccurrence[] | null {
  const unavailable: UnavailableOccurrence[] = [];
  for (const [index, { start, end }] of occurrences.entries()) {
    const occurrenceState = { ...state, activeBookingsOfBooker: state.activeBookingsOfBooker + index, quotas: [] };
    const refusal = placementRefusal({ startTime: start, endTime: end, units }, occurrenceState, actor, now, options);
    if (refusal) unavailable.push({ startTime: start, endTime: end, reason: refusalReason(refusal) });
  }
  return unavailable.length > 0 && unavailable.length < occurrences.length ? unavailable : null;
}

/**
 * Contract §16 with a rule: a resource is free when POST /bookings/bulk of the series would be
 * accepted on it (the bulk create's own checks decide: isAdmittedSeriesAccepted); with `includePartial`,
 * the resources where some but not all occurrences would be refused follow, each with those
 * occurrences and the first check they fail, fewest first. A resource refusing the series as a
 * whole is never listed. The expansion and the policy verdicts are remembered across resources,
 * and a resource with a booking in the way is told without building the refusal.
 */
export function findFreeForSeries(
  candidates: readonly FreeResourceCandidate[],
  command: CreateSeries,
  actor: Principal,
  now: Temporal.Instant,
  options: { includePartial: boolean; policyRefusal: PolicyRefusal; quotaLedger: QuotaLedger; blackouts: readonly Blackout[] },
): FreeForSeries {
  assertSeriesRequest(command, now);
  const decider = searchingAs(actor);
  const decision: SeriesDecisionOptions = { occurrencesOf: rememberedExpansions(), policyRefusal: options.policyRefusal };
  const free: ListedResource[] = [];
  const partlyFree: PartlyFree[] = [];
  for (const candidate of [...candidates].sort((a, b) => compareCandidates(a.resource, b.resource))) {
    const state: CreateSeriesState = {
      resource: candidate.resource,
      overlapping: candidate.bookings,
      activeBookingsOfBooker: isGuest(actor) ? 0 : candidate.activeBookingsOfBooker,
      quotaLedger: options.quotaLedger,
      blackouts: options.blackouts,
    };
    let admitted: ReturnType<typeof admitSeries>;
    try {
      admitted = admitSeries(command, state, decider, now, decision);
    } catch (error) {
      rethrowRequestFault(error);
      continue;
    }
    const { occurrences } = admitted;
    // No occurrence's units meet a booking: the conflicts, each occurrence's last check, find none.
    if (!anyOccurrenceTaken(candidate, occurrences, command.units) && isAdmittedSeriesAccepted(command, admitted, { ...state, overlapping: [] }, decider, now, decision)) {
      free.push(listedResource(candidate, occurrences));
      continue;
    }
    if (!options.includePartial) continue;
    // A guest's search skips the checks that depend on the caller (contract §16).
    const unavailable = unavailableOccurrences(occurrences, state, decider, now, { policyRefusal: options.policyRefusal, callerChecks: !isGuest(actor) }, command.units);
    if (unavailable) partlyFree.push({ resource: candidate.resource, unavailableOccurrences: unavailable });
  }
  // A stable sort keeps the resources' order among equals.
  partlyFree.sort((a, b) => a.unavailableOccurrences.length - b.unavailableOccurrences.length);
  return { free, partlyFree };
}
