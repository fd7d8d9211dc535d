import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import type { Level } from '../../../src/domain/access/principal.js';
import type { Blackout } from '../../../src/domain/blackout/blackout.js';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { decideCreateBooking } from '../../../src/domain/booking/decide-create-booking.js';
import { decideRescheduleBooking } from '../../../src/domain/booking/decide-reschedule-booking.js';
import { decideCreateSeries } from '../../../src/domain/booking/series/decide-create-series.js';
import { DomainError, type BookingConflict } from '../../../src/domain/domain-error.js';
import { placementRefusal, type PlacementState } from '../../../src/domain/placement/placement-refusal.js';
import { decideJoinWaitlist } from '../../../src/domain/waitlist/decide-join-waitlist.js';
import { actor, booking, now, resource, workspace } from '../booking/booking-fixtures.js';
import { refusalOf } from '../../../src/domain/bundle/bundle-refusal.js';

/**
 * One verdict for every placement: on random resources, bookings, blackouts and callers, each
 * command refuses exactly what placementRefusal answers for the placement it makes (a create, a
 * waitlist join's non-conflict refusals, a reschedule without its own occupation, a series
 * occurrence by occurrence), and accepts exactly when it answers null.
 */
const day = Temporal.Instant.from('2027-01-05T00:00:00Z');
const at = (minute: number) => day.add({ minutes: minute });

const resourceArb = fc
  .record({
    isActive: fc.boolean(),
    units: fc.integer({ min: 1, max: 3 }),
    maxDurationMinutes: fc.constantFrom(60, 480),
    maxBookingsPerUser: fc.constantFrom(null, 1, 2, 5),
    bufferBeforeMinutes: fc.constantFrom(0, 15),
    allowRecurring: fc.boolean(),
  })
  .map(({ isActive, units, ...policy }) => resource(policy, { isActive, units }));

const heldArb = fc.record({
  start: fc.integer({ min: 0, max: 96 }).map((n) => n * 15),
  length: fc.constantFrom(15, 30, 60, 120),
  status: fc.constantFrom<BookingStatus>('confirmed', 'pending', 'cancelled'),
  units: fc.integer({ min: 1, max: 2 }),
});

const blackoutArb = fc.record({ start: fc.integer({ min: 0, max: 1440 * 7 }), length: fc.constantFrom(30, 240) }).map(
  ({ start, length }): Blackout => ({ id: `b-${start}`, workspace, resourceIds: null, from: at(start).toString(), to: at(start + length).toString(), reason: 'closed', createdBy: 'admin', createdAt: now.toString() }),
);

const caseArb = fc.record({
  resource: resourceArb,
  held: fc.array(heldArb, { maxLength: 6 }),
  blackouts: fc.array(blackoutArb, { maxLength: 2 }),
  start: fc.integer({ min: -60, max: 96 }).map((n) => n * 15),
  length: fc.constantFrom(-15, 30, 60, 240),
  units: fc.integer({ min: 1, max: 3 }),
  level: fc.constantFrom<Level>(2, 3, 4, 5),
  onBehalf: fc.boolean(),
  active: fc.integer({ min: 0, max: 3 }),
  unknown: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

const heldOf = (c: Case): Booking[] =>
  c.held.map((h) => booking({ startTime: at(h.start).toString(), endTime: at(h.start + h.length).toString(), status: h.status, units: h.units, bookerProfileId: 'owner' }));

const stateOf = (c: Case): PlacementState => ({ resource: c.unknown ? null : c.resource, overlapping: heldOf(c), activeBookingsOfBooker: c.active, quotas: [], blackouts: c.blackouts });

/** A create of the case's times by its caller (on another's behalf or not), its state and the verdict on it. */
function created(c: Case) {
  const caller = actor(c.level, 'caller');
  const command = { id: 'n-1', title: 'T', startTime: at(c.start), endTime: at(c.start + c.length), units: c.units, bookerProfileId: c.onBehalf ? 'other' : undefined };
  const state = stateOf(c);
  return { caller, command, state, verdict: placementRefusal(command, state, caller, now) };
}

const told = (refusal: DomainError | null) => (refusal ? { code: refusal.code, details: refusal.details } : null);

describe('every command asks the one placement verdict (property)', () => {
  it('a create refuses exactly what the verdict answers, and books when it answers null', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { caller, command, state, verdict } = created(c);
        expect(told(refusalOf(() => decideCreateBooking(command, state, caller, now)))).to.deep.equal(told(verdict));
      }),
      { numRuns: 400 },
    );
  });

  it('a waitlist join is accepted exactly when the verdict is a conflict, and refused with any other refusal', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const { caller, command, state, verdict } = created(c);
        const joined = refusalOf(() => decideJoinWaitlist(command, { ...state, waiting: [] }, caller, now));
        if (verdict === null) expect(joined?.code).to.equal('slot_available');
        else if (verdict.code === 'booking_conflict') expect(joined).to.equal(null);
        else expect(told(joined)).to.deep.equal(told(verdict));
      }),
      { numRuns: 300 },
    );
  });

  it("a reschedule refuses what the verdict answers for its new times without the booking's own occupation", () => {
    fc.assert(
      fc.property(caseArb, fc.boolean(), (c, keepStart) => {
        const caller = actor(Math.min(c.level, 4) as Level, 'caller');
        const own = booking({ startTime: at(600).toString(), endTime: at(660).toString(), bookerProfileId: 'caller', units: 1 });
        const held = heldOf(c);
        const state = { booking: own, resource: c.resource, overlapping: [...held, own], quotas: [], blackouts: c.blackouts };
        // Keeping the start, the end moves (a change of nothing places nothing).
        const command = keepStart ? { endTime: at(690 + c.length) } : { startTime: at(c.start), endTime: at(c.start + c.length), units: c.units };
        const start = command.startTime ?? at(600);
        const startChanged = !start.equals(at(600));
        const placement = { startTime: start, endTime: command.endTime, units: command.units ?? 1, bookerProfileId: 'caller' };
        const verdict = placementRefusal(placement, { resource: c.resource, overlapping: held, activeBookingsOfBooker: 0, quotas: [], blackouts: c.blackouts }, caller, now, { move: { startChanged } });
        expect(told(refusalOf(() => decideRescheduleBooking(command, state, caller, now)))).to.deep.equal(told(verdict));
      }),
      { numRuns: 400 },
    );
  });

  it('a series refuses with the first occurrence the verdict refuses otherwise than by a conflict, else with every conflict of every occurrence', () => {
    fc.assert(
      fc.property(caseArb, fc.integer({ min: 2, max: 5 }), (c, count) => {
        const caller = actor(Math.min(c.level, 4) as Level, 'caller');
        const first = at(Math.max(c.start, 15));
        const command = { parentId: 'p-1', newId: () => 'o', title: 'T', startTime: first, endTime: first.add({ minutes: 60 }), recurrenceRule: `FREQ=DAILY;COUNT=${count}`, units: c.units };
        const state = { resource: c.resource, overlapping: heldOf(c), activeBookingsOfBooker: c.active, blackouts: c.blackouts };
        const series = refusalOf(() => decideCreateSeries(command, state, caller, now));
        if (!c.resource.bookingPolicy.allowRecurring || c.units > c.resource.units) return;
        // The verdict on each occurrence, on every booking of the resource, the earlier occurrences counted.
        const conflicts = new Map<string, BookingConflict>();
        let expected: DomainError | null = null;
        for (let i = 0; i < count && !expected; i++) {
          const start = first.add({ hours: 24 * i });
          const refusal = placementRefusal({ startTime: start, endTime: start.add({ minutes: 60 }), units: c.units }, { ...state, activeBookingsOfBooker: c.active + i, quotas: [] }, caller, now);
          if (refusal?.code === 'booking_conflict') for (const conflict of refusal.details.conflicts!) conflicts.set(conflict.bookingId, conflict);
          else if (refusal) expected = refusal;
        }
        if (expected) expect(told(series)).to.deep.equal(told(expected));
        else if (conflicts.size > 0) expect(series?.details.conflicts?.map((x) => x.bookingId).sort()).to.deep.equal([...conflicts.keys()].sort());
        else expect(series).to.equal(null);
      }),
      { numRuns: 300 },
    );
  });
});
