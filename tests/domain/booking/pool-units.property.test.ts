import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { availableSlots, calendarDay, busyTimesOf } from '../../../src/domain/booking/available-slots.js';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { placementRefusal, isPlacementAccepted } from '../../../src/domain/placement/placement-refusal.js';
import { alice, booking, now, resource } from './booking-fixtures.js';

/**
 * Contract §21 against a brute force: on a day cut into minutes, a create of `units` is accepted
 * exactly when, at every minute of its occupied range (buffers included), the units of the active
 * bookings whose occupied ranges hold that minute plus its own stay within the pool's; refused, it
 * lists every active booking whose occupied range overlaps, and the fewest free units.
 */
const day = Temporal.Instant.from('2027-01-05T00:00:00Z');
const at = (minute: number) => day.add({ minutes: minute });
const iso = (minute: number) => at(minute).toString();

/** Minutes on a five-minute grid, so that ranges often touch and share ends. */
const fives = (min: number, max: number) => fc.integer({ min: min / 5, max: max / 5 }).map((n) => n * 5);

type Held = { start: number; length: number; units: number; before: number; after: number; status: BookingStatus; seriesParent: boolean };

const heldArb = (capacity: number) =>
  fc.record({
    start: fives(480, 720),
    length: fc.oneof(fives(5, 120), fc.integer({ min: 1, max: 120 })),
    units: fc.integer({ min: 1, max: capacity }),
    before: fives(0, 20),
    after: fives(0, 20),
    status: fc.constantFrom<BookingStatus>('confirmed', 'confirmed', 'pending', 'cancelled', 'completed'),
    seriesParent: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  });

const caseArb = fc.integer({ min: 1, max: 6 }).chain((capacity) =>
  fc.record({
    capacity: fc.constant(capacity),
    held: fc.array(heldArb(capacity), { maxLength: 10 }),
    ask: fc.record({
      start: fives(480, 720),
      length: fc.oneof(fives(5, 120), fc.integer({ min: 1, max: 120 })),
      units: fc.integer({ min: 1, max: capacity }),
      before: fives(0, 20),
      after: fives(0, 20),
    }),
  }),
);

const bookingOf = (h: Held): Booking =>
  booking({ startTime: iso(h.start), endTime: iso(h.start + h.length), units: h.units, bufferBeforeMinutes: h.before, bufferAfterMinutes: h.after, status: h.status, isSeriesParent: h.seriesParent, pooled: true });

const holds = (h: Held) => (h.status === 'confirmed' || h.status === 'pending') && !h.seriesParent;

/** Units in use at each minute of [from, to), counted minute by minute. */
function usedPerMinute(held: readonly Held[], from: number, to: number): number[] {
  const used: number[] = [];
  for (let m = from; m < to; m++) {
    used.push(held.filter((h) => holds(h) && h.start - h.before <= m && m < h.start + h.length + h.after).reduce((sum, h) => sum + h.units, 0));
  }
  return used;
}

describe('pools: the conflict rule against a count per minute (contract §21)', () => {
  it('accepts exactly when the units fit at every minute, and tells the conflicts and the fewest free units', () => {
    fc.assert(
      fc.property(caseArb, ({ capacity, held, ask }) => {
        const pool = resource({ bufferBeforeMinutes: ask.before, bufferAfterMinutes: ask.after, maxAdvanceDays: 365, minNoticeMinutes: 0 }, { units: capacity });
        const bookings = held.map(bookingOf);
        const state = { resource: pool, overlapping: bookings, activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
        const command = { startTime: at(ask.start), endTime: at(ask.start + ask.length), units: ask.units };
        const from = ask.start - ask.before;
        const to = ask.start + ask.length + ask.after;
        const peak = Math.max(0, ...usedPerMinute(held, from, to));
        const fits = peak + ask.units <= capacity;

        const refusal = placementRefusal(command, state, alice, now);
        expect(refusal === null).to.equal(fits);
        expect(isPlacementAccepted(command, state, alice, now)).to.equal(fits);
        if (!refusal) return;
        expect(refusal.code).to.equal('booking_conflict');
        expect(refusal.details.availableUnits).to.equal(Math.max(0, capacity - peak));
        const overlapping = bookings.filter((b, i) => holds(held[i]!) && held[i]!.start - held[i]!.before < to && from < held[i]!.start + held[i]!.length + held[i]!.after);
        expect(refusal.details.conflicts!.map((c) => c.bookingId).sort()).to.deep.equal(overlapping.map((b) => b.id).sort());
      }),
      { numRuns: 400 },
    );
  });

  it('lists a slot exactly when a create of it with those units would be accepted, with its fewest free units', () => {
    fc.assert(
      fc.property(caseArb, fc.constantFrom(15, 30, 60), ({ capacity, held, ask }, slotMinutes) => {
        const pool = resource({ bufferBeforeMinutes: ask.before, bufferAfterMinutes: ask.after, maxAdvanceDays: 365, minNoticeMinutes: 0 }, { units: capacity });
        const bookings = held.map(bookingOf);
        const slots = availableSlots({ resource: pool, day: calendarDay(Temporal.PlainDate.from('2027-01-05'), 'UTC'), slotMinutes, busy: busyTimesOf(bookings), earliestStart: now, units: ask.units });
        const listed = new Map(slots.map((s) => [s.start.epochMilliseconds, s.availableUnits]));
        for (let start = 0; start + slotMinutes <= 24 * 60; start += slotMinutes) {
          const from = start - ask.before;
          const to = start + slotMinutes + ask.after;
          const peak = Math.max(0, ...usedPerMinute(held, from, to));
          const state = { resource: pool, overlapping: bookings, activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
          const accepted = placementRefusal({ startTime: at(start), endTime: at(start + slotMinutes), units: ask.units }, state, alice, now) === null;
          expect(listed.has(at(start).epochMilliseconds), `slot at minute ${start}`).to.equal(accepted);
          if (accepted) expect(listed.get(at(start).epochMilliseconds)).to.equal(capacity - peak);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('counts a booking that ends when another starts once: half-open ranges hand their units over', () => {
    const pool = resource({ maxAdvanceDays: 365, minNoticeMinutes: 0 }, { units: 2 });
    const handOver = [booking({ startTime: iso(600), endTime: iso(610), pooled: true }), booking({ startTime: iso(610), endTime: iso(620), pooled: true })];
    const state = { resource: pool, overlapping: handOver, activeBookingsOfBooker: 0, quotas: [], blackouts: [] };
    expect(placementRefusal({ startTime: at(600), endTime: at(620) }, state, alice, now)).to.equal(null);
    expect(placementRefusal({ startTime: at(600), endTime: at(620), units: 2 }, state, alice, now)?.details.availableUnits).to.equal(1);
  });

  it('refuses more units than the resource has with 422 policy units, before any conflict', () => {
    const pool = resource({}, { units: 3 });
    const refusal = placementRefusal({ startTime: at(600), endTime: at(660), units: 4 }, { resource: pool, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [] }, alice, now);
    expect(refusal?.code).to.equal('policy_violation');
    expect(refusal?.details.policy).to.equal('units');
  });

  it('keeps one unit exactly as before: any booking in the way refuses, and says no unit is free', () => {
    const room = resource();
    const inTheWay = booking({ startTime: iso(600), endTime: iso(660) });
    const refusal = placementRefusal({ startTime: at(630), endTime: at(700) }, { resource: room, overlapping: [inTheWay], activeBookingsOfBooker: 0, quotas: [], blackouts: [] }, alice, now);
    expect(refusal?.code).to.equal('booking_conflict');
    expect(refusal?.details).to.deep.equal({ conflicts: [{ bookingId: inTheWay.id, startTime: iso(600), endTime: iso(660) }], availableUnits: 0 });
  });
});
