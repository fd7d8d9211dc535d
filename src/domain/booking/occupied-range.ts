import { Temporal } from 'temporal-polyfill';
import type { Resource } from '../resource/resource.js';
import type { HeldBooking } from './booking.js';

/** Minutes a booking holds around its own times (contract §17). */
export type Buffers = { bufferBeforeMinutes: number; bufferAfterMinutes: number };

/** The time a booking holds on its resource: [startTime − before, endTime + after). */
export type OccupiedRange = { start: Temporal.Instant; end: Temporal.Instant };

/** An occupied range in epoch milliseconds: what the sweeps over many bookings compare. */
export type OccupiedMs = { startMs: number; endMs: number };

const minuteMs = 60_000;

/** The buffers a booking decided now on `resource` takes: its policy in force. */
export const buffersOf = (resource: Resource): Buffers => ({
  bufferBeforeMinutes: resource.bookingPolicy.bufferBeforeMinutes,
  bufferAfterMinutes: resource.bookingPolicy.bufferAfterMinutes,
});

/**
 * The one rule of the occupied range (contract §17), in epoch milliseconds. The database's
 * `booking_occupied_range` (migration 0018) is its SQL twin; a test holds the two together.
 */
export function occupiedMs(startMs: number, endMs: number, buffers: Buffers): OccupiedMs {
  return { startMs: startMs - buffers.bufferBeforeMinutes * minuteMs, endMs: endMs + buffers.bufferAfterMinutes * minuteMs };
}

export function occupiedRange(start: Temporal.Instant, end: Temporal.Instant, buffers: Buffers): OccupiedRange {
  const { startMs, endMs } = occupiedMs(start.epochMilliseconds, end.epochMilliseconds, buffers);
  // The instants' sub-millisecond parts stay: buffers are whole minutes.
  return { start: start.add({ milliseconds: startMs - start.epochMilliseconds }), end: end.add({ milliseconds: endMs - end.epochMilliseconds }) };
}

/** A booking's occupied range in epoch milliseconds (with the buffers it was decided with). */
export function occupiedMsOf(booking: HeldBooking): OccupiedMs {
  return occupiedMs(Date.parse(booking.startTime), Date.parse(booking.endTime), booking);
}

/** The occupied ranges of new slots on `resource` (with its buffers in force; none without a resource). */
export function occupiedRangesOf(slots: readonly { start: Temporal.Instant; end: Temporal.Instant }[], resource: Resource | null): OccupiedRange[] {
  const buffers = resource ? buffersOf(resource) : { bufferBeforeMinutes: 0, bufferAfterMinutes: 0 };
  return slots.map((slot) => occupiedRange(slot.start, slot.end, buffers));
}
