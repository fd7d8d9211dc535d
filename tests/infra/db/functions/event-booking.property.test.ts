import { expect } from 'chai';
import fc from 'fast-check';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { activeStatuses, type Booking, type BookingStatus } from '../../../../src/domain/booking/booking.js';
import { occupiedMsOf } from '../../../../src/domain/booking/occupied-range.js';
import { upcastBooking, type StoredBooking } from '../../../../src/domain/booking/upcast-booking.js';
import { booking } from '../../../domain/booking/booking-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../../../support/test-database.js';

/**
 * The SQL reading of a booking (functions/booking-is-active.sql, functions/event-booking.sql)
 * against its TypeScript twins: the active booking of booking.ts, and the old events' defaults of
 * upcast-booking.ts with the occupied range of occupied-range.ts.
 */
const statuses: BookingStatus[] = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'];
const day = Temporal.Instant.from('2027-01-05T00:00:00Z');

const storedArb = fc
  .record({
    start: fc.integer({ min: 0, max: 2_000 }),
    length: fc.integer({ min: 1, max: 600 }),
    status: fc.constantFrom(...statuses),
    seriesParent: fc.option(fc.boolean(), { nil: undefined }),
    before: fc.option(fc.integer({ min: 0, max: 1_440 }), { nil: undefined }),
    after: fc.option(fc.integer({ min: 0, max: 1_440 }), { nil: undefined }),
    units: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
    pooled: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map((r): StoredBooking => {
    const { units: _u, pooled: _p, bufferBeforeMinutes: _b, bufferAfterMinutes: _a, isSeriesParent: _s, ...rest } = booking({
      startTime: day.add({ minutes: r.start }).toString(),
      endTime: day.add({ minutes: r.start + r.length }).toString(),
      status: r.status,
    });
    // Each field absent as in an event written before it existed, or present.
    return {
      ...rest,
      isSeriesParent: r.seriesParent as boolean,
      ...(r.before === undefined ? {} : { bufferBeforeMinutes: r.before }),
      ...(r.after === undefined ? {} : { bufferAfterMinutes: r.after }),
      ...(r.units === undefined ? {} : { units: r.units }),
      ...(r.pooled === undefined ? {} : { pooled: r.pooled }),
    };
  });

const isActive = (b: Pick<Booking, 'status' | 'isSeriesParent'>) => activeStatuses.includes(b.status) && !b.isSeriesParent;

describe('the SQL reading of a booking, held to the domain (real database)', function () {
  this.timeout(600_000);
  let database: TestDatabase;

  before(async () => {
    database = await createTestDatabase();
  });
  after(() => database.destroy());

  it('booking_is_active holds exactly the bookings the domain calls active', async () => {
    for (const status of statuses) {
      for (const isSeriesParent of [false, true]) {
        const { rows } = await sql<{ active: boolean }>`select booking_is_active(${status}, ${isSeriesParent}) as active`.execute(database.db);
        expect(rows[0]!.active, `${status}, series parent ${isSeriesParent}`).to.equal(isActive({ status, isSeriesParent }));
      }
    }
  });

  it("reads an event's booking of any age as upcastBooking does", async () => {
    await fc.assert(
      fc.asyncProperty(storedArb, async (stored) => {
        const { rows } = await sql<{ active: boolean; lower_ms: number; upper_ms: number; units: number; pooled: boolean }>`
          select event_booking_is_active(b) as active, event_booking_units(b) as units, event_booking_pooled(b) as pooled,
            (extract(epoch from lower(event_booking_occupied_range(b))) * 1000)::float8 as lower_ms,
            (extract(epoch from upper(event_booking_occupied_range(b))) * 1000)::float8 as upper_ms
          from (select ${JSON.stringify(stored)}::jsonb as b) as e`.execute(database.db);
        const upcast = upcastBooking(stored);
        const occupied = occupiedMsOf(upcast);
        expect(rows[0]).to.deep.equal({
          active: isActive({ status: upcast.status, isSeriesParent: upcast.isSeriesParent ?? false }),
          units: upcast.units,
          pooled: upcast.pooled,
          lower_ms: occupied.startMs,
          upper_ms: occupied.endMs,
        });
      }),
      { numRuns: 200 },
    );
  });
});
