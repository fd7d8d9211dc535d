import type { Temporal } from 'temporal-polyfill';
import { isGuest, type Principal } from '../access/principal.js';
import { forbidden, notFound, policyViolation, type DomainError } from '../domain-error.js';
import type { Blackout } from '../blackout/blackout.js';
import { quotaRefusal, quotaViolation } from '../quota/quota-refusal.js';
import type { QuotaUsage } from '../quota/quota-usage.js';
import type { Resource } from '../resource/resource.js';
import type { HeldBooking } from '../booking/booking.js';
import { bookingLimitRefusal, bookingPolicyRefusal } from '../booking/booking-policy.js';
import { blackoutRefusal, blackoutViolation } from '../booking/blackout-refusal.js';
import { bookerRefusal, type NamedBooker } from '../booking/booker.js';
import { timesRefusal } from '../booking/booking-time.js';
import { occupancyRefusal, unitsFit, type AskedUnits } from '../booking/find-conflicts.js';
import { unitsRefusal } from '../booking/unit-use.js';
import { buffersOf, occupiedMs, occupiedRange } from '../booking/occupied-range.js';

/** A placement: a booker (the actor, or the one LV1–LV3 name) on a resource for [startTime, endTime), taking `units` of it (one when absent). */
export type Placement = { startTime: Temporal.Instant; endTime: Temporal.Instant; /** Units of the resource asked (contract §21). */ units?: number } & NamedBooker;

/** What a placement is judged on, read at the stream's revision. */
export type PlacementState = {
  /** The resource asked for (a move's: the booking's, removed ones included), null when there is none. */
  resource: Resource | null;
  /** Active bookings of the resource whose occupied ranges may overlap the placement's, a moved booking's own left out. */
  overlapping: readonly HeldBooking[];
  /** Active bookings of the booker on the resource (a count capped at the policy's limit is enough). */
  activeBookingsOfBooker: number;
  /** The quotas that apply (others may be among them), each with the booker's usage in its period that contains the start (a moved booking's own left out). */
  quotas: readonly QuotaUsage[];
  /** Blackouts of the workspace that may overlap the placement (any resource; the verdict picks). */
  blackouts: readonly Blackout[];
};

/** The units a placement asks of the resource, and how many it has. */
export const askedOf = (placement: { units?: number }, resource: Resource): AskedUnits => ({ units: placement.units ?? 1, capacity: resource.units });

/** The resource's own rules for the times: pure in its policy key (policy-key.ts), so a search may remember it per key. */
export type PolicyRefusal = (resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant) => DomainError | null;

export type PlacementOptions = {
  policyRefusal?: PolicyRefusal;
  /**
   * False for a search by a guest (LV5), who cannot book: the checks that depend on the caller
   * (the level itself, booking on behalf, maxBookingsPerUser, quotas) are skipped (contract §16).
   */
  callerChecks?: boolean;
  /** A booking already made, placed anew (a reschedule, a series' moved occurrence): see resourceRefusal; a kept start is not judged again (past, notice, horizon). */
  move?: { startChanged: boolean };
  /** Whether it adds a booking towards maxBookingsPerUser; false for a move, or a series occurrence taking a cancelled one's place. Default: not a move. */
  addsBooking?: boolean;
};

/** The 403s of a placement, whatever the resource: a guest (LV5) books nothing; LV4 books only for itself. */
export function callerRefusal(named: NamedBooker, actor: Principal): DomainError | null {
  return isGuest(actor) ? forbidden('guests (LV5) cannot book') : bookerRefusal(named, actor);
}

/** The 404 of a placement on no resource or a removed one; a move's resource stays its own, so one removed since accepts no new times (422 isActive). */
export function resourceRefusal(resource: Resource | null, move: boolean): DomainError | null {
  if (resource && !resource.removed) return null;
  return move ? policyViolation('isActive', 'the resource no longer exists') : notFound('resource');
}

/**
 * The one verdict on a placement, which every command that places a booking asks (create, bundle,
 * waitlist join and promotion, reschedule, each occurrence of a series and of its change), and the
 * free search, the slots and free/busy read: the first refusal in the contract's order (400 times →
 * 403 level and booking on behalf → 404 resource → 422 policy: units above the resource's, the
 * resource's own, maxBookingsPerUser, blackout, quota → 409 conflict: the units in use with the
 * occupied range, buffers included, at any instant, plus the asked ones, above the resource's
 * units), or null when the placement would be accepted. A command's own refusals (its booking's
 * state, a series' rule) come between these steps, never reorder them.
 */
export function placementRefusal(placement: Placement, state: PlacementState, actor: Principal, now: Temporal.Instant, options: PlacementOptions = {}): DomainError | null {
  const callerChecks = options.callerChecks ?? true;
  const startChanged = options.move?.startChanged ?? true;
  const times = timesRefusal(placement.startTime, placement.endTime, now, startChanged);
  if (times) return times;
  const caller = callerChecks ? callerRefusal(placement, actor) : null;
  if (caller) return caller;
  const gone = resourceRefusal(state.resource, options.move !== undefined);
  if (gone) return gone;
  const resource = state.resource!;
  const units = unitsRefusal(resource, placement.units ?? 1);
  if (units) return units;
  const policy = startChanged ? (options.policyRefusal ?? bookingPolicyRefusal)(resource, placement.startTime, placement.endTime, now) : bookingPolicyRefusal(resource, placement.startTime, placement.endTime, now, false);
  if (policy) return policy;
  const limit = callerChecks && (options.addsBooking ?? !options.move) ? bookingLimitRefusal(resource, state.activeBookingsOfBooker) : null;
  if (limit) return limit;
  const blackout = blackoutRefusal(state.blackouts, resource.id, placement.startTime, placement.endTime);
  if (blackout) return blackoutViolation(blackout);
  const quota = callerChecks ? quotaRefusal(state.quotas, resource, placement.startTime, placement.endTime) : null;
  if (quota) return quotaViolation(quota);
  if (state.overlapping.length === 0) return null;
  return occupancyRefusal(state.overlapping, occupiedRange(placement.startTime, placement.endTime, buffersOf(resource)), askedOf(placement, resource));
}

/**
 * Whether placementRefusal answers null, without building the refusal of a busy resource: the
 * conflicts are its last check, so units that do not fit refuse whatever the others say, and are
 * counted in epoch numbers. What the free search asks of thousands of resources.
 */
export function isPlacementAccepted(placement: Placement, state: PlacementState, actor: Principal, now: Temporal.Instant, options: PlacementOptions = {}): boolean {
  const { resource } = state;
  if (resource && state.overlapping.length > 0) {
    const occupied = occupiedMs(placement.startTime.epochMilliseconds, placement.endTime.epochMilliseconds, buffersOf(resource));
    if (!unitsFit(state.overlapping, occupied.startMs, occupied.endMs, askedOf(placement, resource))) return false;
  }
  // No booking in the way: the conflicts, placementRefusal's last check, find none, so the state need not carry them.
  return placementRefusal(placement, state.overlapping.length === 0 ? state : { ...state, overlapping: [] }, actor, now, options) === null;
}
