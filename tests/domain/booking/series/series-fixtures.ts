import type { Booking } from '../../../../src/domain/booking/booking.js';
import { booking } from '../booking-fixtures.js';

export const parentId = 'ffffffff-0000-4000-8000-000000000001';

/** Deterministic ids in the order a decision asks for them. */
export function idSource(prefix = 'aaaaaaaa'): () => string {
  let next = 0;
  return () => `${prefix}-0000-4000-8000-${String(++next).padStart(12, '0')}`;
}

/** A stored series of alice: Mondays 09:00–09:30 UTC from 2027-01-11, `count` of them. */
export function storedSeries(count: number, parentExtra: Partial<Booking> = {}) {
  const parent = booking({
    id: parentId,
    title: 'Stand-up',
    startTime: '2027-01-11T09:00:00Z',
    endTime: '2027-01-11T09:30:00Z',
    isSeriesParent: true,
    recurrenceRule: `FREQ=WEEKLY;COUNT=${count}`,
    recurrenceTimeZone: 'UTC',
    ...parentExtra,
  });
  const occurrences = Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.parse('2027-01-11T09:00:00Z') + i * 7 * 86_400_000);
    const start = day.toISOString().replace('.000Z', 'Z');
    const end = new Date(day.getTime() + 30 * 60_000).toISOString().replace('.000Z', 'Z');
    return booking({ title: 'Stand-up', startTime: start, endTime: end, recurrenceParentId: parentId });
  });
  return { parent, occurrences };
}
