import type { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../blackout/blackout.js';
import { DomainError } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { blackoutRefusal, blackoutViolation } from '../blackout-refusal.js';
import { assertBookingPolicy } from '../booking-policy.js';

/** The first policy one occurrence breaks, in the order a single booking is checked (a blackout in its way last), or null. */
export function occurrencePolicyViolation(
  resource: Resource,
  start: Temporal.Instant,
  end: Temporal.Instant,
  now: Temporal.Instant,
  blackouts: readonly Blackout[],
  startChanged = true,
): DomainError | null {
  try {
    assertBookingPolicy(resource, start, end, now, startChanged);
    const blackout = blackoutRefusal(blackouts, resource.id, start, end);
    return blackout ? blackoutViolation(blackout) : null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
