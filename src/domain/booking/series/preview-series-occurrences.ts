import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../access/principal.js';
import type { BookingConflict } from '../../domain-error.js';
import { utcText } from '../booking-time.js';
import { isWithinBookingLimit } from '../booking-policy.js';
import { admitSeries, type CreateSeries, type CreateSeriesState } from './decide-create-series.js';
import { occurrencePolicyViolation } from './occurrence-policy-violation.js';
import { occupancyByOccurrence } from './series-conflicts.js';
import { askedOf } from '../../placement/placement-refusal.js';
import { buffersOf } from '../occupied-range.js';

export type OccurrencePreview = { startTime: string; endTime: string; conflicts: BookingConflict[]; availableUnits: number; violations: string[] };

/**
 * What creating the series would meet, occurrence by occurrence, storing nothing. The request as a
 * whole is refused as a creation would refuse it; occurrences past maxAdvanceDays are listed with
 * that violation. Per occurrence: the first policy it breaks in the single-booking order, then
 * maxBookingsPerUser once the booker's count with the earlier occurrences reaches the limit; the
 * bookings in its way when its units do not fit, and the fewest free units of its occupied range.
 */
export function previewSeriesOccurrences(command: CreateSeries, state: CreateSeriesState, actor: Principal, now: Temporal.Instant): OccurrencePreview[] {
  const { resource, occurrences } = admitSeries(command, state, actor, now);
  const occupancy = occupancyByOccurrence(state.overlapping, occurrences, buffersOf(resource), askedOf(command, resource));
  return occurrences.map(({ start, end }, index) => {
    const policy = occurrencePolicyViolation(resource, start, end, now, state.blackouts)?.details.policy;
    const violations = policy === undefined ? [] : [policy];
    if (!isWithinBookingLimit(resource, state.activeBookingsOfBooker + index)) violations.push('maxBookingsPerUser');
    const { conflicts, availableUnits } = occupancy[index]!;
    return { startTime: utcText(start), endTime: utcText(end), conflicts, availableUnits, violations };
  });
}
