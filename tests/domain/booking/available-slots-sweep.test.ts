import { expect } from 'chai';
import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { availableSlots, busyTimesOf, calendarDay, type SlotQuery } from '../../../src/domain/booking/available-slots.js';
import type { Booking, BookingStatus } from '../../../src/domain/booking/booking.js';
import { openIntervals, type Interval } from '../../../src/domain/resource/availability.js';
import { weekdays, type TimeWindow } from '../../../src/domain/resource/resource.js';
import { booking, resource } from './booking-fixtures.js';

type OldSlotQuery = Omit<SlotQuery, 'busy'> & { bookings: readonly Booking[] };

/** The implementation the sweep replaced: every candidate slot against every booking, in Temporal. */
function slotsByComparingAll({ resource: r, day, slotMinutes, bookings, earliestStart }: OldSlotQuery): Interval[] {
  if (!r.isActive || r.removed) return [];
  const open = openIntervals(r.availability, day.start, day.end);
  const busy = bookings
    .filter((b) => !b.isSeriesParent && ['pending', 'confirmed'].includes(b.status))
    .map((b) => ({ start: Temporal.Instant.from(b.startTime), end: Temporal.Instant.from(b.endTime) }));
  const within = (outer: Interval, start: Temporal.Instant, end: Temporal.Instant) =>
    Temporal.Instant.compare(outer.start, start) <= 0 && Temporal.Instant.compare(end, outer.end) <= 0;
  const overlaps = (start: Temporal.Instant, end: Temporal.Instant, b: Interval) =>
    Temporal.Instant.compare(b.start, end) < 0 && Temporal.Instant.compare(b.end, start) > 0;
  const slots: Interval[] = [];
  for (let start = day.start; ; start = start.add({ minutes: slotMinutes })) {
    const end = start.add({ minutes: slotMinutes });
    if (Temporal.Instant.compare(end, day.end) > 0) break;
    if (Temporal.Instant.compare(start, earliestStart) < 0) continue;
    if (!open.some((interval) => within(interval, start, end))) continue;
    if (busy.some((b) => overlaps(start, end, b))) continue;
    slots.push({ start, end });
  }
  return slots;
}

const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'America/St_Johns'];
// Days around the 2027 DST changes of these zones, and ordinary ones.
const dates = ['2027-03-14', '2027-03-28', '2027-04-04', '2027-10-03', '2027-10-31', '2027-11-07', '2027-06-15', '2027-01-05'];
const statuses: BookingStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'];
const minute = 60_000;

const wallClock = fc.integer({ min: 0, max: 47 }).map((h) => `${String(Math.floor(h / 2)).padStart(2, '0')}:${h % 2 ? '30' : '00'}`);
const window: fc.Arbitrary<TimeWindow> = fc
  .tuple(wallClock, fc.integer({ min: 1, max: 30 }))
  .map(([start, halfHours]) => {
    const endMinutes = Math.min(24 * 60, Number(start.slice(0, 2)) * 60 + Number(start.slice(3)) + halfHours * 30);
    const end = endMinutes === 24 * 60 ? '24:00' : `${String(Math.floor(endMinutes / 60)).padStart(2, '0')}:${String(endMinutes % 60).padStart(2, '0')}`;
    return { start, end };
  });
const availability = fc.option(
  fc.record({
    timeZone: fc.constantFrom(...zones),
    hours: fc.dictionary(fc.constantFrom(...weekdays), fc.array(window, { maxLength: 3 })),
  }),
  { nil: null },
);

describe('free slots by one sweep', () => {
  it('answer exactly what comparing every slot with every booking answered', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...dates),
        fc.constantFrom(...zones),
        fc.constantFrom(5, 15, 25, 30, 45, 60, 90, 720, 1440),
        availability,
        fc.array(
          fc.record({
            offsetMinutes: fc.integer({ min: -600, max: 26 * 60 }),
            lengthMs: fc.integer({ min: 1, max: 5 * 60 * minute }),
            extraMs: fc.integer({ min: 0, max: 999 }),
            status: fc.constantFrom(...statuses),
            seriesParent: fc.boolean(),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: -2 * 24 * 60, max: 26 * 60 }),
        fc.bigInt({ min: 0n, max: 999_999n }),
        fc.boolean(),
        fc.boolean(),
        (date, zone, slotMinutes, hours, specs, earliestMinutes, earliestNanos, isActive, removed) => {
          const day = calendarDay(Temporal.PlainDate.from(date), zone);
          const dayStartMs = day.start.epochMilliseconds;
          const bookings = specs.map((s) => {
            const startMs = dayStartMs + s.offsetMinutes * minute + (s.extraMs % 3 === 0 ? s.extraMs : 0);
            return booking({
              startTime: new Date(startMs).toISOString(),
              endTime: new Date(startMs + s.lengthMs).toISOString(),
              status: s.status,
              isSeriesParent: s.seriesParent,
            });
          });
          const earliestStart = Temporal.Instant.fromEpochNanoseconds(BigInt(dayStartMs + earliestMinutes * minute) * 1_000_000n + earliestNanos);
          const query: OldSlotQuery = { resource: resource({}, { availability: hours, isActive: isActive || removed, removed: removed && !isActive }), day, slotMinutes, bookings, earliestStart };
          const text = (slots: Interval[]) => slots.map((s) => `${s.start.toString()}/${s.end.toString()}`);
          expect(text(availableSlots({ ...query, busy: busyTimesOf(bookings) }))).to.deep.equal(text(slotsByComparingAll(query)));
        },
      ),
      { numRuns: 1500 },
    );
  });
});
