import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { activeStatuses, type Booking } from '../booking/booking.js';
import type { BookingCreated, BookingEvent } from '../booking/booking-events.js';
import { placementRefusal, type PlacementState } from '../placement/placement-refusal.js';
import { decideCreateBooking } from '../booking/decide-create-booking.js';
import type { ApprovalDelegation } from '../approval/approval-delegation.js';
import { buffersOf, occupiedMs, occupiedMsOf } from '../booking/occupied-range.js';
import type { Resource } from '../resource/resource.js';
import { quotaMatches } from '../quota/quota.js';
import { amountOf, type QuotaUsage } from '../quota/quota-usage.js';
import type { WaitlistEvent } from './waitlist-events.js';
import type { WaitlistEntry } from './waitlist-entry.js';

/** A waiting entry with the state its create would decide on, read before the freeing. */
export type Waiter = { entry: WaitlistEntry; state: PlacementState & { delegations?: readonly ApprovalDelegation[] } };

/**
 * The times within which a waiting entry may fit once `freed` (the bookings a command frees, as
 * they are before it) are gone: an entry elsewhere was blocked by something else and still is.
 * An entry's occupied range is its times widened by the resource's buffers, so the window is each
 * freed occupied range widened by them on the opposite sides.
 */
export function reachOfFreeing(freed: readonly Booking[], resource: Resource): { fromMs: number; toMs: number }[] {
  const { bufferBeforeMinutes, bufferAfterMinutes } = buffersOf(resource);
  const opposite = { bufferBeforeMinutes: bufferAfterMinutes, bufferAfterMinutes: bufferBeforeMinutes };
  return freed.map((booking) => {
    const held = occupiedMsOf(booking);
    const { startMs: fromMs, endMs: toMs } = occupiedMs(held.startMs, held.endMs, opposite);
    return { fromMs, toMs };
  });
}

/**
 * The booker's quota usage with the bookings promoted for them earlier in the same freeing: they
 * count in the period that holds their start, as a booking made before would.
 */
function withPromoted(quotas: readonly QuotaUsage[], resource: Resource | null, promoted: readonly Booking[]): readonly QuotaUsage[] {
  if (promoted.length === 0 || !resource || quotas.length === 0) return quotas;
  return quotas.map((quota) => {
    if (!quotaMatches(quota, resource)) return quota;
    const inPeriod = promoted.map((b) => ({ start: Temporal.Instant.from(b.startTime), end: Temporal.Instant.from(b.endTime) }))
      .filter(({ start }) => Temporal.Instant.compare(start, quota.periodStart) >= 0 && Temporal.Instant.compare(start, quota.periodEnd) < 0);
    return { ...quota, used: quota.used + inPeriod.reduce((sum, { start, end }) => sum + amountOf(quota.unit, start, end), 0) };
  });
}

/**
 * The system acts; the verdict is the create the entry's joining principal would make for its
 * booker (contract §23): who joined, at the level and in the groups it joined with.
 */
const joinerOf = (entry: WaitlistEntry): Principal => ({
  sub: entry.createdBy,
  workspace: entry.workspace,
  level: entry.joinedAs.level,
  groups: entry.joinedAs.groups,
  email: entry.createdBy === entry.bookerProfileId ? entry.bookerEmail : null,
});

/** Whether a booking holds its time against others (active, no series parent). */
export const holdsSlot = (booking: Booking) => activeStatuses.includes(booking.status) && !booking.isSeriesParent;

const closed = (entry: WaitlistEntry, changes: Partial<WaitlistEntry>, at: string): WaitlistEntry => ({ ...entry, ...changes, closedAt: at });

/**
 * The promotions a freeing allows (contract §23): after `freeing` (the events that free time on
 * the resource, possibly none for a promotion asked from outside), each waiter in the order the
 * entries were made is tried with the create's verdict against the resource as it is then — the
 * bookings the freeing moved taken as they are after it, the earlier promotions added. An entry
 * that would now be accepted becomes a booking (createdBy "system") and is fulfilled; one refused
 * by its conflicts keeps waiting; one refused otherwise is closed `refused` with the check's name;
 * one whose start has passed is closed `expired`.
 */
export function promoteWaiters(freeing: readonly BookingEvent[], waiters: readonly Waiter[], now: Temporal.Instant, newId: () => string): (BookingCreated | WaitlistEvent)[] {
  const moved = new Map(freeing.map((event) => [event.data.booking.id, event.data.booking]));
  const promoted: Booking[] = [];
  const at = now.toString();
  const events: (BookingCreated | WaitlistEvent)[] = [];
  for (const { entry, state } of waiters) {
    if (Temporal.Instant.compare(Temporal.Instant.from(entry.startTime), now) <= 0) {
      events.push({ type: 'WaitlistClosed', data: { entry: closed(entry, { status: 'expired' }, at), by: 'system', at } });
      continue;
    }
    const ownPromoted = promoted.filter((booking) => booking.bookerProfileId === entry.bookerProfileId);
    const after = {
      ...state,
      overlapping: [...state.overlapping.filter((held) => !moved.has(held.id)), ...[...moved.values()].filter(holdsSlot), ...promoted],
      activeBookingsOfBooker: state.activeBookingsOfBooker + ownPromoted.length,
      quotas: withPromoted(state.quotas, state.resource, ownPromoted),
    };
    const command = { id: newId(), title: entry.title, startTime: Temporal.Instant.from(entry.startTime), endTime: Temporal.Instant.from(entry.endTime), bookerProfileId: entry.bookerProfileId, bookerEmail: entry.bookerEmail, units: entry.units };
    const refusal = placementRefusal(command, after, joinerOf(entry), now);
    if (refusal?.code === 'booking_conflict') continue;
    if (refusal) {
      events.push({ type: 'WaitlistClosed', data: { entry: closed(entry, { status: 'refused', policy: refusal.details.policy ?? refusal.code }, at), by: 'system', at } });
      continue;
    }
    const created = decideCreateBooking(command, after, joinerOf(entry), now);
    const booking = { ...created.data.booking, createdBy: 'system' };
    promoted.push(booking);
    events.push({ ...created, data: { ...created.data, booking, by: 'system' } });
    events.push({ type: 'WaitlistFulfilled', data: { entry: closed(entry, { status: 'fulfilled', bookingId: booking.id }, at), by: 'system', at } });
  }
  return events;
}
