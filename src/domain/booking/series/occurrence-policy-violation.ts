import type { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../blackout/blackout.js';
import type { DomainError } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { blackoutRefusal, blackoutViolation } from '../blackout-refusal.js';
import { bookingPolicyRefusal } from '../booking-policy.js';

/** The first policy one occurrence of a dry run breaks, in the order a single booking is checked (a blackout in its way last), or null. */
export function occurrencePolicyViolation(resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, blackouts: readonly Blackout[]): DomainError | null {
  const policy = bookingPolicyRefusal(resource, start, end, now);
  if (policy) return policy;
  const blackout = blackoutRefusal(blackouts, resource.id, start, end);
  return blackout ? blackoutViolation(blackout) : null;
}
