import { Temporal } from 'temporal-polyfill';
import type { Resource } from '../resource/resource.js';
import type { HeldBooking } from './booking.js';

/** Minutes a booking holds around its own times (contract §17). */
export type Buffers = { bufferBeforeMinutes: number; bufferAfterMinutes: number };

/** The time a booking holds on its resource: [startTime − before, endTime + after). */
export type OccupiedRange = { start: Temporal.Instant; end: Temporal.Instant };

const minuteMs = 60_000;

/** The buffers a booking decided now on `resource` takes: its policy in force. */
export const buffersOf = (resource: Resource): Buffers => ({
  bufferBeforeMinutes: resource.bookingPolicy.bufferBeforeMinutes,
  bufferAfterMinutes: resource.bookingPolicy.bufferAfterMinutes,
});

export function occupiedRange(start: Temporal.Instant, end: Temporal.Instant, buffers: Buffers): OccupiedRange {
  return { start: start.subtract({ minutes: buffers.bufferBeforeMinutes }), end: end.add({ minutes: buffers.bufferAfterMinutes }) };
}

/** A booking's occupied range in epoch milliseconds (with the buffers it was decided with). */
export function occupiedMsOf(booking: HeldBooking): { startMs: number; endMs: number } {
  return {
    startMs: Date.parse(booking.startTime) - booking.bufferBeforeMinutes * minuteMs,
    endMs: Date.parse(booking.endTime) + booking.bufferAfterMinutes * minuteMs,
  };
}

/** The occupied ranges of new slots on `resource` (with its buffers in force; none without a resource). */
export function occupiedRangesOf(slots: readonly { start: Temporal.Instant; end: Temporal.Instant }[], resource: Resource | null): OccupiedRange[] {
  const buffers = resource ? buffersOf(resource) : { bufferBeforeMinutes: 0, bufferAfterMinutes: 0 };
  return slots.map((slot) => occupiedRange(slot.start, slot.end, buffers));
}
