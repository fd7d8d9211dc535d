import { bookingEventTypes, bookingIdOfEvent, type BookingEvent } from '../../domain/booking/booking-events.js';
import type { Insertable } from 'kysely';
import { insertJsonRows } from '../../infra/db/json-rows.js';
import { bind, executeAll, sqlTemplate, upsertStatement, type BoundSql } from '../../infra/db/sql-template.js';
import type { UtilizationBookingsTable } from '../../infra/db/tables/utilization-bookings.table.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';

type UtilizationRow = Insertable<UtilizationBookingsTable>;

const columns = Object.keys({
  booking_id: true,
  bookable_resource_id: true,
  start_time: true,
  end_time: true,
  start_us: true,
  end_us: true,
  status: true,
  checked_in: true,
  units: true,
} satisfies Record<keyof UtilizationBookingsTable, true>);

const upsertRow = sqlTemplate<UtilizationRow>((row) => [upsertStatement('utilization_bookings', columns, 'booking_id', row)]);

/** The booking's row after the event; none for a series parent. */
function rowOf(event: EventOf): UtilizationRow | undefined {
  const { booking } = event.data as BookingEvent['data'];
  if (booking.isSeriesParent) return undefined;
  const [startMs, endMs] = [Date.parse(booking.startTime), Date.parse(booking.endTime)];
  return {
    booking_id: booking.id,
    bookable_resource_id: booking.bookableResourceId,
    start_time: new Date(startMs),
    end_time: new Date(endMs),
    start_us: startMs * 1000,
    end_us: endMs * 1000,
    status: booking.status,
    checked_in: booking.checkedInAt !== null,
    // Events written before pools carry none: one unit.
    units: booking.units ?? 1,
  };
}

function statementsOf(event: EventOf): BoundSql[] {
  const row = rowOf(event);
  return row ? [bind(upsertRow, row)] : [];
}

/**
 * One row per booking with its resource, times, status and check-in, replaced by every booking
 * event (each carries the whole booking), so a replay writes the same row: a run of events writes
 * each booking's last in one statement. Series parents only describe a pattern and count nowhere:
 * they get no row.
 */
export const utilizationProjector: Projector = {
  name: 'utilization',
  tables: ['utilization_bookings'],
  handles: bookingEventTypes,
  setBased: true,
  async apply(trx, events) {
    const rows = new Map<string, UtilizationRow>();
    for (const event of events) {
      const row = rowOf(event);
      if (row) rows.set(row.booking_id, row);
    }
    if (rows.size > 0) await insertJsonRows('utilization_bookings', columns, JSON.stringify([...rows.values()]), 'booking_id').execute(trx);
  },
  sqlOf: statementsOf,
  sqlKeyOf: bookingIdOfEvent,
};
