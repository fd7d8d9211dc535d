import { Temporal } from 'temporal-polyfill';
import { coversResource, type Blackout } from '../blackout/blackout.js';
import { DomainError } from '../domain-error.js';
import { instantOf, overlaps } from './booking-time.js';

/**
 * The blackout that refuses a booking of [start, end) on the resource (its own times, buffers
 * aside), or null: of those covering the resource and overlapping, the first by `from`, then id.
 */
export function blackoutRefusal(blackouts: readonly Blackout[], resourceId: string, start: Temporal.Instant, end: Temporal.Instant): Blackout | null {
  let first: Blackout | null = null;
  for (const blackout of blackouts) {
    if (!coversResource(blackout, resourceId) || !isInTheWay(blackout, start, end)) continue;
    if (!first || isBefore(blackout, first)) first = blackout;
  }
  return first;
}

/** Whether the blackout shares time with a booking of [start, end) (its own times, buffers aside) on a resource it covers. */
export const isInTheWay = (blackout: Blackout, start: Temporal.Instant, end: Temporal.Instant): boolean => overlaps(start, end, instantOf(blackout.from), instantOf(blackout.to));

function isBefore(a: Blackout, b: Blackout): boolean {
  const byFrom = Temporal.Instant.compare(instantOf(a.from), instantOf(b.from));
  return byFrom < 0 || (byFrom === 0 && a.id < b.id);
}

/** 422 policy `blackout` with the blackout's id, for the first blackout in the way. */
export function blackoutViolation(blackout: Blackout): DomainError {
  return new DomainError('policy_violation', `the resource is blacked out from ${blackout.from} to ${blackout.to}: ${blackout.reason}`, {
    policy: 'blackout',
    blackoutId: blackout.id,
  });
}
