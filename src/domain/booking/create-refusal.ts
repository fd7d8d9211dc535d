import type { Temporal } from 'temporal-polyfill';
import { isGuest, type Principal } from '../access/principal.js';
import { forbidden, notFound, type DomainError } from '../domain-error.js';
import type { Blackout } from '../blackout/blackout.js';
import { quotaRefusal, quotaViolation } from '../quota/quota-refusal.js';
import type { QuotaUsage } from '../quota/quota-usage.js';
import type { Resource } from '../resource/resource.js';
import type { HeldBooking } from './booking.js';
import { bookingLimitRefusal, bookingPolicyRefusal } from './booking-policy.js';
import { blackoutRefusal, blackoutViolation } from './blackout-refusal.js';
import { bookerRefusal, type NamedBooker } from './booker.js';
import { timesRefusal } from './booking-time.js';
import { occupancyRefusal, unitsFit, type AskedUnits } from './find-conflicts.js';
import { unitsRefusal } from './unit-use.js';
import { buffersOf, occupiedMs, occupiedRange } from './occupied-range.js';

/** The times a create asks for, and whom it books for (LV1–LV3 may name another booker). */
export type CreateTimes = { startTime: Temporal.Instant; endTime: Temporal.Instant; /** Units of the resource asked (contract §21); one when absent. */ units?: number } & NamedBooker;

/** What a create decides on, read at the stream's revision. */
export type CreateBookingState = {
  /** The registered (live) resource asked for, null when there is none. */
  resource: Resource | null;
  /** Active bookings of the resource whose occupied ranges may overlap the new one's. */
  overlapping: readonly HeldBooking[];
  /** Active bookings of the booker (the named one, else the actor) on the resource (a count capped at the policy's limit is enough). */
  activeBookingsOfBooker: number;
  /** The quotas that apply (others may be among them), each with the booker's usage in its period that contains the start. */
  quotas: readonly QuotaUsage[];
  /** Blackouts of the workspace that may overlap the booking (any resource; the decision picks). */
  blackouts: readonly Blackout[];
};

/** The units a create asks of the resource, and how many it has. */
export const askedOf = (command: { units?: number }, resource: Resource): AskedUnits => ({ units: command.units ?? 1, capacity: resource.units });

/** The resource's own rules for the times: pure in the resource's isActive, policy and availability, so a search may remember it per policy. */
export type PolicyRefusal = (resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant) => DomainError | null;

export type RefusalOptions = {
  policyRefusal?: PolicyRefusal;
  /**
   * False for a search by a guest (LV5), who cannot book: the checks that depend on the caller
   * (the level itself, booking on behalf, maxBookingsPerUser, quotas) are skipped (contract §16).
   */
  callerChecks?: boolean;
};

/**
 * The one verdict on a create, shared by POST /bookings and the free search (contract §16): the
 * first refusal in the contract's order (400 times → 403 level and booking on behalf → 404
 * resource → 422 policy: units above the resource's, the resource's own, maxBookingsPerUser,
 * blackout, quota → 409 conflict: the units in use with the occupied range, buffers included, at
 * any instant, plus the asked ones, above the resource's units), or null when the booking would be
 * accepted.
 */
export function createRefusal(command: CreateTimes, state: CreateBookingState, actor: Principal, now: Temporal.Instant, options: RefusalOptions = {}): DomainError | null {
  const callerChecks = options.callerChecks ?? true;
  const times = timesRefusal(command.startTime, command.endTime, now);
  if (times) return times;
  if (callerChecks && isGuest(actor)) return forbidden('guests (LV5) cannot create bookings');
  const onBehalf = callerChecks ? bookerRefusal(command, actor) : null;
  if (onBehalf) return onBehalf;
  const { resource } = state;
  if (!resource || resource.removed) return notFound('resource');
  const units = unitsRefusal(resource, command.units ?? 1);
  if (units) return units;
  const policy = (options.policyRefusal ?? bookingPolicyRefusal)(resource, command.startTime, command.endTime, now);
  if (policy) return policy;
  const limit = callerChecks ? bookingLimitRefusal(resource, state.activeBookingsOfBooker) : null;
  if (limit) return limit;
  const blackout = blackoutRefusal(state.blackouts, resource.id, command.startTime, command.endTime);
  if (blackout) return blackoutViolation(blackout);
  const quota = callerChecks ? quotaRefusal(state.quotas, resource, command.startTime, command.endTime) : null;
  if (quota) return quotaViolation(quota);
  if (state.overlapping.length === 0) return null;
  return occupancyRefusal(state.overlapping, occupiedRange(command.startTime, command.endTime, buffersOf(resource)), askedOf(command, resource));
}

/**
 * Whether createRefusal answers null, without building the refusal of a busy resource: the
 * conflicts are its last check, so units that do not fit refuse whatever the others say, and are
 * counted in epoch numbers. What the free search asks of thousands of resources.
 */
export function isCreateAccepted(command: CreateTimes, state: CreateBookingState, actor: Principal, now: Temporal.Instant, options: RefusalOptions = {}): boolean {
  const { resource } = state;
  if (resource && state.overlapping.length > 0) {
    const occupied = occupiedMs(command.startTime.epochMilliseconds, command.endTime.epochMilliseconds, buffersOf(resource));
    if (!unitsFit(state.overlapping, occupied.startMs, occupied.endMs, askedOf(command, resource))) return false;
  }
  // No booking in the way: the conflicts, createRefusal's last check, find none, so the state need not carry them.
  return createRefusal(command, { ...state, overlapping: [] }, actor, now, options) === null;
}
