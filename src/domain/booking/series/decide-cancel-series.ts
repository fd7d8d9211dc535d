import { Temporal } from 'temporal-polyfill';
import { isGuest, type Principal } from '../../access/principal.js';
import { forbidden, invalidTransition } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { activeStatuses, type Booking } from '../booking.js';
import type { BookingCancelled } from '../booking-events.js';
import { assertBookerOrAdmin } from '../booking-access.js';
import { isBeforeCancellationDeadline } from '../booking-policy.js';
import { instantOf } from '../booking-time.js';
import { cancelled } from '../booking-cancelled.js';
import { visibleSeriesParent } from './visible-series-parent.js';

export type CancelSeriesState = {
  parent: Booking | null;
  /** The series' resource, removed ones included: its cancellation policy still applies. */
  resource: Resource | null;
  /** The series' own occurrences (still linked, any status) starting after now. */
  upcoming: readonly Booking[];
};

/**
 * Cancels every occurrence still ahead that is pending or confirmed and not checked in, then the
 * parent. The cancellation policy applies to each occurrence as to a single booking, except that
 * occurrences past their deadline are kept, not refused.
 */
export function decideCancelSeries(state: CancelSeriesState, actor: Principal, now: Temporal.Instant, reason: string | null = null): BookingCancelled[] {
  if (isGuest(actor)) throw forbidden('guests (LV5) cannot cancel a series');
  const parent = visibleSeriesParent(actor, state.parent);
  assertBookerOrAdmin(actor, parent);
  if (!activeStatuses.includes(parent.status)) throw invalidTransition(`a series cannot be cancelled in status ${parent.status}`);
  const cancellable = (b: Booking) =>
    activeStatuses.includes(b.status) &&
    b.checkedInAt === null &&
    Temporal.Instant.compare(now, instantOf(b.startTime)) <= 0 &&
    isBeforeCancellationDeadline(b, state.resource, actor, now);
  return [...state.upcoming.filter(cancellable), parent].map((b) => cancelled(b, actor.sub, now, reason));
}
