import { Temporal } from 'temporal-polyfill';
import { utcTextOfEpochMs } from '../../domain/booking/booking-time.js';
import { boundedCache } from '../../infra/cache/bounded-cache.js';
import type { Database } from '../../infra/db/database.js';
import { renderTimesInSql } from '../../projections/booking/schedule-json.js';
import { timeJson } from './booking-json.js';

const zoneSamplesUntil = Date.UTC(2100, 0, 1);

/** The verdict of each zone checked (or being checked) in this process; about 600 zones exist. */
const zoneAgreement = boundedCache<string, boolean | 'checking'>('sql-zone-agreement', { maxEntries: 1_000 });

/**
 * Whether PostgreSQL's zone rules write the instants of `zone` exactly as the service's (ICU via
 * Temporal) do: both sides of every transition from 1970 to 2100, checked once per zone and
 * process. Until the check has passed (it takes a few hundred ms: Temporal is slow at finding
 * transitions) and for a zone the server does not know or writes differently, schedules are
 * rendered in Node.
 */
export function sqlWritesZone(db: Database, zone: string): boolean {
  const known = zoneAgreement.get(zone);
  if (known !== undefined) return known === true;
  zoneAgreement.set(zone, 'checking');
  void (async () => {
    const samples = [Date.UTC(1970, 0, 1, 0, 0, 0, 7), Date.UTC(2026, 6, 1, 12, 30, 15, 120)];
    const first = Temporal.Instant.fromEpochMilliseconds(samples[0]!).toZonedDateTimeISO(zone);
    for (let next = first.getTimeZoneTransition('next'); next && next.epochMilliseconds < zoneSamplesUntil; next = next.getTimeZoneTransition('next')) {
      samples.push(next.epochMilliseconds - 1, next.epochMilliseconds);
    }
    const written = await renderTimesInSql(db, samples, zone);
    return samples.every((ms, i) => written[i] === timeJson(utcTextOfEpochMs(ms), zone));
  })().then(
    (agreed) => zoneAgreement.set(zone, agreed),
    () => zoneAgreement.set(zone, false),
  );
  return false;
}
