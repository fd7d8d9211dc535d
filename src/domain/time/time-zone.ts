import { Temporal } from 'temporal-polyfill';

/**
 * Names seen, with their canonical ids (null: not a zone); Temporal takes about 45 µs to answer one.
 * Kept in the domain, so not through boundedCache (infra, with its metrics, is above the domain): a
 * pure function's memo, bounded here by taking no more than 1,000 names.
 */
const known = new Map<string, string | null>();

/** The canonical id of an IANA time zone, or null when the name is not one. */
export function canonicalTimeZone(name: string): string | null {
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  let id: string | null = null;
  if (/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) {
    try {
      id = Temporal.Instant.fromEpochMilliseconds(0).toZonedDateTimeISO(name).timeZoneId;
    } catch {
      id = null;
    }
  }
  if (known.size < 1000) known.set(name, id);
  return id;
}
