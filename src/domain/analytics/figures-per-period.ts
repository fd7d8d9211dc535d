import type { BookingStatus } from '../booking/booking.js';
import type { BookingFigures } from './utilization-row.js';

/** A booking as utilization reads it, times in epoch microseconds (exact: the store keeps microseconds). */
export type AnalysedBooking = { startUs: number; endUs: number; status: BookingStatus; checkedIn: boolean; /** Units of the resource it takes (contract §21); its minutes count once per unit. */ units: number };

/** Statuses whose bookings hold their minutes. */
const holding: ReadonlySet<BookingStatus> = new Set(['confirmed', 'completed', 'no_show']);

/** The index of the period holding `us`: the last boundary not after it (boundaries ascending, us within them). */
function periodOf(boundariesUs: readonly number[], us: number): number {
  let low = 0;
  let high = boundariesUs.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (boundariesUs[middle]! <= us) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * The bookings' figures of each period of contiguous periods given by their boundaries (each start,
 * then the last end, epoch ms): minutes held by confirmed, completed and no-show bookings, cut at
 * the period edges, times their units (a pool's unit-minutes, contract §21);
 * counts of the bookings starting in the period, by status now and checked in.
 * A booking is cut only at the boundaries it crosses.
 */
export function figuresPerPeriod(bookings: readonly AnalysedBooking[], boundariesMs: readonly number[]): BookingFigures[] {
  const boundariesUs = boundariesMs.map((ms) => ms * 1000);
  const fromUs = boundariesUs[0]!;
  const toUs = boundariesUs.at(-1)!;
  const heldUs = new Array<number>(boundariesUs.length - 1).fill(0);
  const counts = heldUs.map(() => ({ bookings: 0, cancelled: 0, noShows: 0, completed: 0, checkedIn: 0 }));
  for (const booking of bookings) {
    const startUs = Math.max(booking.startUs, fromUs);
    const endUs = Math.min(booking.endUs, toUs);
    if (startUs >= endUs) continue;
    if (holding.has(booking.status)) {
      for (let period = periodOf(boundariesUs, startUs); period < heldUs.length && boundariesUs[period]! < endUs; period++) {
        heldUs[period]! += (Math.min(endUs, boundariesUs[period + 1]!) - Math.max(startUs, boundariesUs[period]!)) * booking.units;
      }
    }
    if (booking.startUs < fromUs) continue;
    const count = counts[periodOf(boundariesUs, booking.startUs)]!;
    count.bookings += 1;
    if (booking.status === 'cancelled') count.cancelled += 1;
    if (booking.status === 'no_show') count.noShows += 1;
    if (booking.status === 'completed') count.completed += 1;
    if (booking.checkedIn) count.checkedIn += 1;
  }
  // Milliseconds first, then minutes: the same two roundings as the figures had when SQL summed them.
  return counts.map((count, period) => ({ bookedMinutes: heldUs[period]! / 1000 / 60_000, ...count }));
}
