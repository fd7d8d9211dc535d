import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { placementRefusal, type PlacementState } from '../../../src/domain/placement/placement-refusal.js';
import type { DomainError } from '../../../src/domain/domain-error.js';
import { freeBusy, type FreeBusyPeriod, type FreeBusyType } from '../../../src/domain/placement/free-busy.js';
import type { Availability } from '../../../src/domain/resource/resource.js';
import { admin, booking, resource, resourceUuid, workspace } from '../booking/booking-fixtures.js';

const now = Temporal.Instant.from('2027-01-04T08:00:00Z');
const rangeStart = Temporal.Instant.from('2027-01-05T00:00:00Z');
const range = { start: rangeStart, end: rangeStart.add({ hours: 48 }) };
/** Five-minute steps from the range's start: bookings, blackouts and probes fall on and between each other's edges. */
const atStep = (step: number) => rangeStart.add({ minutes: step * 5 });
const steps = 48 * 12;

const weekdays = (windows: { start: string; end: string }[]) => ({ monday: windows, tuesday: windows, wednesday: windows, thursday: windows, friday: windows });
const hoursOf: Record<string, Availability | null> = {
  always: null,
  office: { timeZone: 'Europe/Berlin', hours: weekdays([{ start: '08:00', end: '18:00' }]) },
  split: { timeZone: 'America/New_York', hours: weekdays([{ start: '07:00', end: '12:00' }, { start: '12:00', end: '12:30' }, { start: '13:00', end: '20:00' }]) },
};

const worldArb = fc.record({
  units: fc.constantFrom(1, 1, 2, 3),
  bufferBeforeMinutes: fc.constantFrom(0, 10, 30),
  bufferAfterMinutes: fc.constantFrom(0, 15),
  hours: fc.constantFrom('always', 'office', 'split'),
  bookings: fc.array(
    fc.record({
      start: fc.integer({ min: -24, max: steps }),
      length: fc.integer({ min: 1, max: 36 }),
      status: fc.constantFrom<BookingStatus>('confirmed', 'confirmed', 'pending', 'cancelled', 'completed'),
      units: fc.constantFrom(1, 1, 2),
      bufferBeforeMinutes: fc.constantFrom(0, 15),
      bufferAfterMinutes: fc.constantFrom(0, 5, 20),
      checkedIn: fc.boolean(),
    }),
    { maxLength: 14 },
  ),
  blackouts: fc.array(fc.record({ start: fc.integer({ min: -12, max: steps }), length: fc.integer({ min: 1, max: 48 }), ownResource: fc.constantFrom(true, null, false) }), { maxLength: 2 }),
  probes: fc.array(fc.record({ start: fc.integer({ min: 0, max: steps - 1 }), length: fc.integer({ min: 1, max: 60 }) }), { minLength: 1, maxLength: 25 }),
});

const touches = (periods: readonly FreeBusyPeriod[], types: readonly FreeBusyType[], start: Temporal.Instant, end: Temporal.Instant) =>
  periods.some((p) => types.includes(p.type) && p.startMs < end.epochMilliseconds && p.endMs > start.epochMilliseconds);

const hoursOrBlackout = (refusal: DomainError | null) => refusal?.code === 'policy_violation' && ['availability', 'blackout'].includes(refusal.details.policy!);

/**
 * Free/busy against the create's own decision (placementRefusal), for random rooms and pools with
 * buffers (the resource's now, and others held by older bookings), pending and confirmed bookings,
 * hours and blackouts: a one-unit create of a period is accepted exactly when the period is free;
 * one touching BUSY-UNAVAILABLE is refused with 422 (hours or blackout); one touching BUSY or
 * BUSY-TENTATIVE with 409, unless hours or a blackout hidden under the busy time refuse it first
 * (422 precedes 409), which the free/busy of the same room without bookings then shows.
 */
describe('free/busy and the create agree (property)', () => {
  it('a one-unit create is accepted exactly on free time, 409 on busy time, 422 on unavailable time', () => {
    fc.assert(
      fc.property(worldArb, (world) => {
        const room = resource(
          { bufferBeforeMinutes: world.bufferBeforeMinutes, bufferAfterMinutes: world.bufferAfterMinutes, maxDurationMinutes: 24 * 60, minNoticeMinutes: 0 },
          { units: world.units, availability: hoursOf[world.hours]! },
        );
        const bookings: Booking[] = world.bookings.map((b) =>
          booking({
            startTime: atStep(b.start).toString(),
            endTime: atStep(b.start + b.length).toString(),
            status: b.status,
            units: b.units,
            bufferBeforeMinutes: b.bufferBeforeMinutes,
            bufferAfterMinutes: b.bufferAfterMinutes,
            checkedInAt: b.checkedIn && b.status === 'confirmed' ? now.toString() : null,
          }),
        );
        const blackouts: Blackout[] = world.blackouts.map((b, i) => ({
          id: `blackout-${i}`,
          workspace,
          resourceIds: b.ownResource === null ? null : [b.ownResource ? resourceUuid : 'another-resource'],
          from: atStep(b.start).toString(),
          to: atStep(b.start + b.length).toString(),
          reason: 'closed',
          createdBy: 'admin',
          createdAt: now.toString(),
        }));
        const periods = freeBusy({ resource: room, bookings, blackouts, range });
        const unavailableOnly = freeBusy({ resource: room, bookings: [], blackouts, range });
        for (const [i, p] of periods.entries()) {
          expect(p.startMs).to.be.lessThan(p.endMs);
          expect(p.startMs).to.be.at.least(range.start.epochMilliseconds);
          expect(p.endMs).to.be.at.most(range.end.epochMilliseconds);
          const next = periods[i + 1];
          if (next) expect(next.startMs >= p.endMs && !(next.startMs === p.endMs && next.type === p.type), 'disjoint, in order, merged').to.equal(true);
        }
        const state = (held: readonly Booking[]): PlacementState => ({ resource: room, overlapping: held, activeBookingsOfBooker: 0, quotas: [], blackouts });
        const confirmedOnly = bookings.filter((b) => b.status !== 'pending');
        for (const probe of world.probes) {
          const startTime = atStep(probe.start);
          const endTime = atStep(Math.min(steps, probe.start + probe.length));
          const refusal = placementRefusal({ startTime, endTime, units: 1 }, state(bookings), admin, now);
          const said = `${startTime}–${endTime}: ${refusal ? `${refusal.code} ${refusal.details.policy ?? ''}` : 'accepted'} in ${JSON.stringify(periods.map((p) => [p.type, new Date(p.startMs), new Date(p.endMs)]))}`;
          if (touches(periods, ['BUSY-UNAVAILABLE'], startTime, endTime)) {
            expect(hoursOrBlackout(refusal), said).to.equal(true);
          } else if (touches(periods, ['BUSY', 'BUSY-TENTATIVE'], startTime, endTime)) {
            if (refusal?.code !== 'booking_conflict') {
              expect(hoursOrBlackout(refusal), said).to.equal(true);
              expect(touches(unavailableOnly, ['BUSY-UNAVAILABLE'], startTime, endTime), said).to.equal(true);
            }
            // BUSY is the confirmed bookings' alone: without the pending ones, a create there still conflicts, and only there.
            const withoutPending = placementRefusal({ startTime, endTime, units: 1 }, state(confirmedOnly), admin, now);
            if (!hoursOrBlackout(withoutPending)) expect(withoutPending?.code === 'booking_conflict', said).to.equal(touches(periods, ['BUSY'], startTime, endTime));
          } else {
            expect(refusal, said).to.equal(null);
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});
