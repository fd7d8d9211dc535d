import type { Temporal } from 'temporal-polyfill';
import type { ApprovalDelegation } from '../../approval/approval-delegation.js';
import { bookingCreated } from '../../approval/pending-approvers.js';
import type { Principal } from '../../access/principal.js';
import { callerRefusal, resourceRefusal, type PolicyRefusal } from '../../placement/placement-refusal.js';
import { areOccurrencesAccepted, occurrencesRefusal } from '../../placement/occurrences-refusal.js';
import { unitsRefusal } from '../unit-use.js';
import type { Blackout } from '../../blackout/blackout.js';
import { DomainError, invalidRequest, policyViolation } from '../../domain-error.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { Resource } from '../../resource/resource.js';
import type { Booking, HeldBooking } from '../booking.js';
import type { BookingCreated } from '../booking-events.js';
import { assertValidTimes } from '../booking-time.js';
import { newBooking } from '../new-booking.js';
import { bookerOf, type Booker } from '../booker.js';
import type { QuotaLedger } from '../../quota/quota-refusal.js';
import { assertRecurrenceRule, assertWithinHorizon, clientTimeZone, defaultSeriesTimeZone, isWithinHorizon, seriesOccurrences } from './series-pattern.js';

export type CreateSeries = {
  parentId: string;
  /** A fresh id for each occurrence. */
  newId: () => string;
  title: string;
  /** The first occurrence (DTSTART); it gives every occurrence's local time and duration. */
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  recurrenceRule: string;
  /** Absent: the resource's availability zone, else UTC. */
  timeZone?: string;
  /** Starts of occurrences to leave out. */
  exdates?: readonly Temporal.Instant[];
  /** Defaults to the token's email when booking for oneself. */
  bookerEmail?: string | null;
  /** LV1–LV3: book for this user (contract §17); defaults to the token's `sub`. */
  bookerProfileId?: string;
  /** Units of the resource each occurrence takes (contract §21); one when absent. */
  units?: number;
  /** The organizer's calendar event that asks for the series (contract §26); none when absent. */
  calendarUid?: string;
};

export type CreateSeriesState = {
  /** The registered (live) resource asked for, null when there is none. */
  resource: Resource | null;
  /** Active bookings of the resource whose occupied ranges may overlap an occurrence's. */
  overlapping: readonly HeldBooking[];
  /** Active bookings of the booker on the resource (a count capped at the policy's limit is enough). */
  activeBookingsOfBooker: number;
  /** The workspace's quotas and the booker's counted bookings in their periods around the occurrences. */
  quotaLedger?: QuotaLedger;
  /** Blackouts of the workspace that may overlap an occurrence. */
  blackouts: readonly Blackout[];
  /** Delegations given by the resource's approvers, named on pending occurrences' creations (contract §24). */
  delegations?: readonly ApprovalDelegation[];
};

type AdmittedSeries = { resource: Resource; timeZone: string; occurrences: Occurrence[]; booker: Booker };

/**
 * The refusals of the request as a whole, in the contract's order: 400 times, rule and zone →
 * 403 level (and booking on behalf) → 404 resource → 400 the expansion (the rule against its start in the series' zone,
 * more than 500 occurrences, occurrences overlapping each other) → 422 allowRecurring. A preview
 * fails on these alone; occurrences past maxAdvanceDays are left to the caller.
 */
export function admitSeries(command: CreateSeries, state: CreateSeriesState, actor: Principal, now: Temporal.Instant, options: SeriesDecisionOptions = {}): AdmittedSeries {
  const namedZone = assertSeriesRequest(command, now);
  const early = callerRefusal(command, actor) ?? resourceRefusal(state.resource, false);
  if (early) throw early;
  const booker = bookerOf(command, actor);
  const resource = state.resource!;
  const timeZone = namedZone ?? defaultSeriesTimeZone(resource);
  const occurrences = (options.occurrencesOf ?? seriesOccurrences)({ ...command, timeZone }, resource, now);
  if (occurrences.length === 0) throw invalidRequest('exdates leave the series without any occurrence', '/body/exdates');
  if (!resource.bookingPolicy.allowRecurring) throw policyViolation('allowRecurring', 'the resource does not accept recurring bookings');
  const units = unitsRefusal(resource, command.units ?? 1);
  if (units) throw units;
  return { resource, timeZone, occurrences, booker };
}

/** The refusals of the request whatever the resource (400: times, rule, zone); the zone it names, canonical. */
export function assertSeriesRequest(command: CreateSeries, now: Temporal.Instant): string | undefined {
  assertValidTimes(command.startTime, command.endTime, now);
  assertRecurrenceRule(command.recurrenceRule);
  return command.timeZone === undefined ? undefined : clientTimeZone(command.timeZone);
}

/**
 * Pure parts of the decision a search over thousands of resources may remember: the expansion (a
 * function of the zone and the horizon) and the resource's policy verdicts (of its policy).
 */
export type SeriesDecisionOptions = { occurrencesOf?: typeof seriesOccurrences; policyRefusal?: PolicyRefusal };

/** The occurrences a decision on this request will look at, past the horizon included; none when it refuses the request as a whole. */
export function seriesSlots(command: CreateSeries, resource: Resource | null, actor: Principal, now: Temporal.Instant, options: SeriesDecisionOptions = {}): Occurrence[] {
  try {
    return admitSeries(command, { resource, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] }, actor, now, options).occurrences;
  } catch (error) {
    if (error instanceof DomainError) return [];
    throw error;
  }
}

/**
 * All or nothing: the placement's verdict on each occurrence (occurrencesRefusal) accepts every
 * one, or the series is refused with the first occurrence's violation (422) or with every booking
 * in its way (409). Every check of decideCreateSeries, which books what it admits.
 */
export function checkSeriesCreate(command: CreateSeries, state: CreateSeriesState, actor: Principal, now: Temporal.Instant, options: SeriesDecisionOptions = {}): AdmittedSeries {
  const admitted = admitSeries(command, state, actor, now, options);
  const { resource, occurrences } = admitted;
  assertWithinHorizon(occurrences, resource, now);
  const refusal = occurrencesRefusal(command, occurrences, { ...state, resource }, actor, now, { policyRefusal: options.policyRefusal });
  if (refusal) throw refusal;
  return admitted;
}

/** Whether checkSeriesCreate accepts a series admitSeries admitted, without building a refusal: what the free search asks of each resource. */
export function isAdmittedSeriesAccepted(command: CreateSeries, admitted: AdmittedSeries, state: CreateSeriesState, actor: Principal, now: Temporal.Instant, options: SeriesDecisionOptions = {}): boolean {
  const { resource, occurrences } = admitted;
  return isWithinHorizon(occurrences, resource, now) && areOccurrencesAccepted(command, occurrences, { ...state, resource }, actor, now, { policyRefusal: options.policyRefusal });
}

/** The series checkSeriesCreate admits: the parent first, holding the rule and the first occurrence's times, then each occurrence. */
export function decideCreateSeries(command: CreateSeries, state: CreateSeriesState, actor: Principal, now: Temporal.Instant, options: SeriesDecisionOptions = {}): BookingCreated[] {
  const { resource, timeZone, occurrences, booker } = checkSeriesCreate(command, state, actor, now, options);

  const booked = {
    resource,
    bookerProfileId: booker.profileId,
    bookerEmail: booker.email,
    createdBy: actor.sub,
    title: command.title,
    now,
    units: command.units ?? 1,
    calendarUid: command.calendarUid ?? null,
  };
  const parent: Booking = {
    ...newBooking({ ...booked, id: command.parentId, startTime: command.startTime, endTime: command.endTime }),
    isSeriesParent: true,
    recurrenceRule: command.recurrenceRule,
    recurrenceTimeZone: timeZone,
  };
  const children = occurrences.map(
    ({ start, end }): Booking => ({ ...newBooking({ ...booked, id: command.newId(), startTime: start, endTime: end }), recurrenceParentId: parent.id }),
  );
  return [parent, ...children].map((booking) => bookingCreated(booking, actor.sub, resource, state.delegations ?? [], now));
}
