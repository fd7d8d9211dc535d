import { Temporal } from 'temporal-polyfill';
import { bookingCreated } from '../../approval/pending-approvers.js';
import type { Principal } from '../../access/principal.js';
import type { Blackout } from '../../blackout/blackout.js';
import { DomainError, invalidRequest, invalidTransition, policyViolation } from '../../domain-error.js';
import type { Occurrence } from '../../recurrence/index.js';
import type { Resource } from '../../resource/resource.js';
import { activeStatuses, type Booking } from '../booking.js';
import type { BookingCancelled, BookingCreated, BookingRescheduled } from '../booking-events.js';
import { changedBooking, sequenceOf } from '../booking-sequence.js';
import { assertBookerOrAdmin } from '../booking-access.js';
import { instantOf, utcText } from '../booking-time.js';
import { cancelled } from '../booking-cancelled.js';
import { callerRefusal, resourceRefusal } from '../../placement/placement-refusal.js';
import { occurrencesRefusal, type PlacedOccurrence } from '../../placement/occurrences-refusal.js';
import { pooledWhenPlaced } from '../unit-use.js';
import { newBooking } from '../new-booking.js';
import { emptyQuotaLedger, type QuotaLedger } from '../../quota/quota-refusal.js';
import { buffersOf } from '../occupied-range.js';
import { assertRecurrenceRule, assertWithinHorizon, clientTimeZone, parentPattern, patternDates, seriesDate, seriesOccurrences, type SeriesPattern } from './series-pattern.js';
import { visibleSeriesParent } from './visible-series-parent.js';

export type UpdateSeries = {
  /** A fresh id for each occurrence the change adds. */
  newId: () => string;
  title?: string;
  /** The pattern's new first occurrence; its time of day and, with endTime, its duration. */
  startTime?: Temporal.Instant;
  endTime?: Temporal.Instant;
  recurrenceRule?: string;
  timeZone?: string;
};

export type UpdateSeriesState = {
  parent: Booking | null;
  /** The series' resource, removed ones included (null only if it never existed). */
  resource: Resource | null;
  /** The series' own occurrences (still linked, any status) starting after now. */
  upcoming: readonly Booking[];
  /** Active bookings of the resource that may overlap the changed occurrences, the series' own included. */
  overlapping: readonly Booking[];
  /** Active bookings of the series' booker on the resource, counted up to the limit plus the upcoming occurrences. */
  activeBookingsOfBooker: number;
  /** Blackouts of the workspace that may overlap a changed occurrence. */
  blackouts: readonly Blackout[];
  /** The workspace's quotas and the series' booker's counted bookings in the periods of the changed occurrences (its own included). */
  quotaLedger?: QuotaLedger;
};

export const seriesChangedReason = 'series changed';

type SeriesEvent = BookingRescheduled | BookingCancelled | BookingCreated;

/** An upcoming occurrence the series still governs: active and not checked in. */
const isMovable = (b: Booking) => activeStatuses.includes(b.status) && b.checkedInAt === null;
const isAfter = (a: Temporal.Instant, b: Temporal.Instant) => Temporal.Instant.compare(a, b) > 0;

function changedPattern(command: UpdateSeries, parent: Booking, now: Temporal.Instant): SeriesPattern {
  const old = parentPattern(parent);
  const startTime = command.startTime ?? old.startTime;
  const duration = old.startTime.until(old.endTime);
  const endTime = command.endTime ?? (command.startTime ? command.startTime.add(duration) : old.endTime);
  if (Temporal.Instant.compare(endTime, startTime) <= 0) throw invalidRequest('endTime must be after startTime', '/body/endTime');
  // Bounds the re-expansion: a running series is walked from its first occurrence, never from earlier.
  const earliest = Temporal.Instant.compare(old.startTime, now) < 0 ? old.startTime : now;
  if (Temporal.Instant.compare(startTime, earliest) < 0) {
    throw invalidRequest(`startTime may not lie before both now and the series' first occurrence (${parent.startTime})`, '/body/startTime');
  }
  return {
    startTime,
    endTime,
    recurrenceRule: command.recurrenceRule ?? old.recurrenceRule,
    timeZone: command.timeZone === undefined ? old.timeZone : clientTimeZone(command.timeZone),
  };
}

/** The changed pattern's occurrences after now that a decision will look at; none when it refuses the change anyway. */
export function changedSeriesSlots(command: UpdateSeries, parent: Booking | null, resource: Resource | null, now: Temporal.Instant): Occurrence[] {
  if (!parent?.isSeriesParent || !resource) return [];
  try {
    return seriesOccurrences(changedPattern(command, parent, now), resource, now).filter((o) => isAfter(o.start, now));
  } catch (error) {
    if (error instanceof DomainError) return [];
    throw error;
  }
}

/** An upcoming occurrence that keeps its id, with its slot in the new pattern. */
type Kept = { booking: Booking; slot: Occurrence };

type Plan = {
  kept: Kept[];
  created: Occurrence[];
  dropped: Booking[];
};

/**
 * Occurrences are known by their local date. A future date of the new pattern takes over the
 * upcoming occurrence of that date (moved, or left alone when it was cancelled or checked in);
 * a date the old pattern left out (exdates, detached exceptions) stays out; any other date is a new
 * occurrence. Movable upcoming occurrences on no date of the new pattern are cancelled.
 */
function planChange(old: SeriesPattern, next: SeriesPattern, future: Occurrence[], upcoming: readonly Booking[], now: Temporal.Instant): Plan {
  const upcomingByDate = new Map(upcoming.map((b) => [seriesDate(instantOf(b.startTime), old.timeZone), b]));
  const lastUpcoming = upcoming.reduce((last, b) => (isAfter(instantOf(b.startTime), last) ? instantOf(b.startTime) : last), now);
  const leftOut = patternDates(old, now, lastUpcoming);
  for (const date of upcomingByDate.keys()) leftOut.delete(date);

  const plan: Plan = { kept: [], created: [], dropped: [] };
  const taken = new Set<string>();
  for (const slot of future) {
    const date = seriesDate(slot.start, next.timeZone);
    const booking = upcomingByDate.get(date);
    if (booking) {
      taken.add(booking.id);
      if (isMovable(booking)) plan.kept.push({ booking, slot });
    } else if (!leftOut.has(date)) {
      plan.created.push(slot);
    }
  }
  plan.dropped = upcoming.filter((b) => isMovable(b) && !taken.has(b.id));
  return plan;
}

function moved(kept: Kept): boolean {
  return !kept.slot.start.equals(instantOf(kept.booking.startTime)) || !kept.slot.end.equals(instantOf(kept.booking.endTime));
}

/**
 * The exclusion constraint checks each row as it is written, so moves must never hold two
 * overlapping slots on the way: occurrences moving later go latest first, earlier ones earliest
 * first (a series moves by one local offset, so the two never cross).
 */
function moveOrder(a: Kept, b: Kept): number {
  const shift = (k: Kept) => Temporal.Instant.compare(k.slot.start, instantOf(k.booking.startTime));
  const start = (k: Kept) => instantOf(k.booking.startTime);
  if (shift(a) !== shift(b)) return shift(b) - shift(a);
  return shift(a) > 0 ? Temporal.Instant.compare(start(b), start(a)) : Temporal.Instant.compare(start(a), start(b));
}

/**
 * The changed series' occurrences to place, in time order: the moved ones move a booking already
 * made (a kept start not judged again); the new ones take the places of the cancelled ones first
 * (those add no booking), then add one each, as a new series' occurrences do.
 */
function placedOccurrences(moves: readonly Kept[], plan: Plan): PlacedOccurrence[] {
  const moved = moves.map((k): PlacedOccurrence => ({ ...k.slot, move: { startChanged: !k.slot.start.equals(instantOf(k.booking.startTime)) } }));
  const created = plan.created.map((slot, j): PlacedOccurrence => ({ ...slot, addsBooking: j >= plan.dropped.length }));
  return [...moved, ...created].sort((a, b) => Temporal.Instant.compare(a.start, b.start));
}

/** What the changed occurrences are judged on: the resource without the occupation, the quota use and the count of what the change moves or cancels. */
function withoutOwn(state: UpdateSeriesState, resource: Resource, moves: readonly Kept[], plan: Plan) {
  const movable = new Set(state.upcoming.filter(isMovable).map((b) => b.id));
  const ledger = state.quotaLedger ?? emptyQuotaLedger;
  const leaving = new Set([...moves.map((k) => k.booking.id), ...plan.dropped.map((b) => b.id)]);
  return {
    resource,
    overlapping: state.overlapping.filter((b) => !movable.has(b.id)),
    activeBookingsOfBooker: state.activeBookingsOfBooker - plan.dropped.length,
    quotaLedger: { quotas: ledger.quotas, counted: ledger.counted.filter((b) => !leaving.has(b.id)) },
    blackouts: state.blackouts,
  };
}

function rescheduled(before: Booking, after: Booking, by: string, at: string): BookingRescheduled {
  return { type: 'BookingRescheduled', data: { booking: after, by, at, previousStartTime: before.startTime, previousEndTime: before.endTime } };
}

/**
 * Changes the parent and every future occurrence the series still governs, all or nothing: the
 * changed and new occurrences pass the policies (422) and meet no active booking but the series'
 * own movable ones (409). Past occurrences and detached exceptions stay as they are.
 */
export function decideUpdateSeries(command: UpdateSeries, state: UpdateSeriesState, actor: Principal, now: Temporal.Instant): SeriesEvent[] {
  if (command.startTime && command.endTime && Temporal.Instant.compare(command.endTime, command.startTime) <= 0) {
    throw invalidRequest('endTime must be after startTime', '/body/endTime');
  }
  if (command.recurrenceRule !== undefined) assertRecurrenceRule(command.recurrenceRule);
  if (command.timeZone !== undefined) clientTimeZone(command.timeZone);
  const caller = callerRefusal({}, actor);
  if (caller) throw caller;
  const parent = visibleSeriesParent(actor, state.parent);
  assertBookerOrAdmin(actor, parent);
  if (parent.calendarUid !== null) {
    throw new DomainError('calendar_managed', "a series made by a calendar invitation changes with its event: change the event in the organizer's calendar");
  }
  if (!activeStatuses.includes(parent.status)) throw invalidTransition(`a series cannot be changed in status ${parent.status}`);
  if (!state.resource) throw resourceRefusal(null, true)!;
  const { resource } = state;
  const old = parentPattern(parent);
  const next = changedPattern(command, parent, now);
  const future = seriesOccurrences(next, resource, now).filter((o) => isAfter(o.start, now));
  if (!resource.bookingPolicy.allowRecurring) throw policyViolation('allowRecurring', 'the resource does not accept recurring bookings');
  assertWithinHorizon(future, resource, now);
  const plan = planChange(old, next, future, state.upcoming, now);
  const moves = plan.kept.filter(moved);
  const placement = { bookerProfileId: parent.bookerProfileId, bookerEmail: parent.bookerEmail, units: parent.units };
  const refusal = occurrencesRefusal(placement, placedOccurrences(moves, plan), withoutOwn(state, resource, moves, plan), actor, now);
  if (refusal) throw refusal;

  const at = utcText(now);
  const title = command.title ?? parent.title;
  const nextParent: Booking = {
    ...parent,
    title,
    startTime: utcText(next.startTime),
    endTime: utcText(next.endTime),
    recurrenceRule: next.recurrenceRule,
    recurrenceTimeZone: next.timeZone,
    updatedAt: at,
    sequence: sequenceOf(parent) + 1,
  };
  const renamed = plan.kept.filter((k) => !moved(k) && k.booking.title !== title);
  const parentChanged = (['title', 'startTime', 'endTime', 'recurrenceRule', 'recurrenceTimeZone'] as const).some((field) => nextParent[field] !== parent[field]);
  if (!parentChanged && moves.length + renamed.length + plan.created.length + plan.dropped.length === 0) return [];

  // New times need a new approval where the resource asks for approval, as for a single booking.
  const movedBooking = ({ booking, slot }: Kept): Booking => {
    const status = resource.bookingPolicy.autoConfirm ? booking.status : 'pending';
    const backToPending = status === 'pending' && booking.status === 'confirmed';
    return {
      ...booking,
      title,
      startTime: utcText(slot.start),
      endTime: utcText(slot.end),
      // Moved times are decided now: they take the buffers in force, as a reschedule does.
      ...buffersOf(resource),
      pooled: pooledWhenPlaced(booking, resource),
      status,
      confirmedBy: backToPending ? null : booking.confirmedBy,
      confirmedAt: backToPending ? null : booking.confirmedAt,
      updatedAt: at,
      sequence: sequenceOf(booking) + 1,
    };
  };
  const booked = { resource, bookerProfileId: parent.bookerProfileId, bookerEmail: parent.bookerEmail, createdBy: actor.sub, title, now, units: parent.units };
  return [
    rescheduled(parent, nextParent, actor.sub, at),
    ...plan.dropped.map((b) => cancelled(b, actor.sub, now, seriesChangedReason)),
    ...[...moves].sort(moveOrder).map((k) => rescheduled(k.booking, movedBooking(k), actor.sub, at)),
    ...renamed.map((k) => rescheduled(k.booking, changedBooking(k.booking, at, { title }), actor.sub, at)),
    // New occurrences name their approvers, without delegates: the update reads none (contract §24).
    ...plan.created.map((slot): BookingCreated => {
      const booking: Booking = { ...newBooking({ ...booked, id: command.newId(), startTime: slot.start, endTime: slot.end }), recurrenceParentId: parent.id };
      return bookingCreated(booking, actor.sub, resource, [], now);
    }),
  ];
}
