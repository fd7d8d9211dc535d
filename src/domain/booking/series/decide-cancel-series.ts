import { Temporal } from 'temporal-polyfill';
import { isAdmin, type Principal } from '../../access/principal.js';
import { forbidden, invalidTransition } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { activeStatuses, type Booking } from '../booking.js';
import type { BookingCancelled } from '../booking-events.js';
import { assertBookerOrAdmin } from '../booking-access.js';
import { instantOf } from '../booking-time.js';
import { cancelled } from '../decide-booking-moves.js';
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
 * parent. LV4/LV5 cancel a confirmed occurrence only until cancellationPolicy.minNoticeMinutes
 * before its start, as a single booking: occurrences inside that window are kept, not refused.
 */
export function decideCancelSeries(state: CancelSeriesState, actor: Principal, now: Temporal.Instant, reason: string | null = null): BookingCancelled[] {
  if (actor.level === 5) throw forbidden('guests (LV5) cannot cancel a series');
  const parent = visibleSeriesParent(actor, state.parent);
  assertBookerOrAdmin(actor, parent);
  if (!activeStatuses.includes(parent.status)) throw invalidTransition(`a series cannot be cancelled in status ${parent.status}`);
  const noticeMinutes = isAdmin(actor) ? 0 : (state.resource?.bookingPolicy.cancellationPolicy.minNoticeMinutes ?? 0);
  const cancellable = (b: Booking) => {
    if (!activeStatuses.includes(b.status) || b.checkedInAt !== null) return false;
    const deadline = b.status === 'confirmed' ? instantOf(b.startTime).subtract({ minutes: noticeMinutes }) : instantOf(b.startTime);
    return Temporal.Instant.compare(now, deadline) <= 0;
  };
  return [...state.upcoming.filter(cancellable), parent].map((b) => cancelled(b, actor.sub, now, reason));
}
