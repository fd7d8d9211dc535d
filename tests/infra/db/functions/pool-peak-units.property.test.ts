import { expect } from 'chai';
import fc from 'fast-check';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Booking, BookingStatus } from '../../../../src/domain/booking/booking.js';
import { peakUnits, unitsHeldBy } from '../../../../src/domain/booking/unit-use.js';
import { upcastBooking, type StoredBooking } from '../../../../src/domain/booking/upcast-booking.js';
import { bookingToRow } from '../../../../src/projections/booking/booking-row.js';
import { resourceToRow } from '../../../../src/projections/resource/resource-row.js';
import { booking, resource, resourceUuid } from '../../../domain/booking/booking-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../../../support/test-database.js';

/**
 * The pool guard's count (functions/pool-peak-units.sql) against its TypeScript twin
 * (unit-use.ts's peakUnits over unitsHeldBy): random bookings of one pool in the read model, and
 * random later versions of some of them (and new ones) as an earlier event of the same append
 * carries them (`pending`, latest first, fields of old events missing), over a random window with
 * a random booking left out: the database's peak equals the domain's.
 */
const day = Temporal.Instant.from('2027-01-05T00:00:00Z');
const iso = (minute: number) => day.add({ minutes: minute }).toString();
const fives = (min: number, max: number) => fc.integer({ min: min / 5, max: max / 5 }).map((n) => n * 5);
const idOf = (n: number) => `00000000-0000-4000-8000-${String(900_000 + n).padStart(12, '0')}`;

const versionArb = fc.record({
  id: fc.integer({ min: 0, max: 11 }),
  start: fives(480, 720),
  length: fc.oneof(fives(5, 120), fc.integer({ min: 1, max: 120 })),
  units: fc.integer({ min: 1, max: 5 }),
  before: fives(0, 20),
  after: fives(0, 20),
  status: fc.constantFrom<BookingStatus>('confirmed', 'confirmed', 'pending', 'cancelled', 'completed', 'no_show'),
  seriesParent: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
type Version = typeof versionArb extends fc.Arbitrary<infer T> ? T : never;

const bookingOf = (v: Version): Booking =>
  booking({
    id: idOf(v.id),
    startTime: iso(v.start),
    endTime: iso(v.start + v.length),
    units: v.units,
    pooled: true,
    bufferBeforeMinutes: v.before,
    bufferAfterMinutes: v.after,
    status: v.status,
    isSeriesParent: v.seriesParent,
  });

/** A booking as an event of any age carries it: buffers and units absent when they were defaults. */
const storedOf = (b: Booking, old: boolean): StoredBooking => {
  if (!old || b.units !== 1 || b.bufferBeforeMinutes !== 0 || b.bufferAfterMinutes !== 0) return b;
  const { units: _u, pooled: _p, bufferBeforeMinutes: _b, bufferAfterMinutes: _a, ...rest } = b;
  return rest;
};

const caseArb = fc.record({
  stored: fc.uniqueArray(versionArb, { maxLength: 10, selector: (v) => v.id }),
  pending: fc.array(fc.record({ version: versionArb, old: fc.boolean() }), { maxLength: 4 }),
  window: fc.record({ start: fives(420, 780), length: fc.integer({ min: 1, max: 300 }) }),
  except: fc.option(fc.integer({ min: 0, max: 11 }), { nil: null }),
});

describe('pool_peak_units, the SQL twin of unit-use.ts (property, real database)', function () {
  this.timeout(600_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
    await database.db.insertInto('resources').values({ ...resourceToRow(resource({}, { units: 20 }), 1), counted: true }).execute();
  });
  after(() => database.destroy());

  it('answers the peak the domain computes, whatever the bookings, the pending versions and the window', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async ({ stored, pending, window, except }) => {
        await sql`delete from bookings where bookable_resource_id = ${resourceUuid}::uuid`.execute(database.db);
        const rows = stored.map(bookingOf);
        if (rows.length > 0) await database.db.insertInto('bookings').values(rows.map(bookingToRow)).execute();
        // Latest first: the first pending version of an id is the one that counts.
        const latest = pending.map((p) => storedOf(bookingOf(p.version), p.old));
        const seen = new Map<string, Booking>();
        for (const p of latest) if (!seen.has(p.id)) seen.set(p.id, upcastBooking(p));
        const merged = [...rows.filter((b) => !seen.has(b.id)), ...seen.values()];
        const exceptId = except === null ? undefined : idOf(except);
        const from = window.start;
        const to = window.start + window.length;
        const expected = peakUnits(unitsHeldBy(merged, exceptId), day.add({ minutes: from }).epochMilliseconds, day.add({ minutes: to }).epochMilliseconds);

        const { rows: answer } = await sql<{ peak: number }>`
          select pool_peak_units(${resourceUuid}::uuid, tstzrange(${iso(from)}::timestamptz, ${iso(to)}::timestamptz, '[)'),
            ${exceptId ?? null}::uuid, ${JSON.stringify(latest)}::jsonb) as peak`.execute(database.db);
        expect(answer[0]!.peak).to.equal(expected);
      }),
      { numRuns: 150 },
    );
  });
});
