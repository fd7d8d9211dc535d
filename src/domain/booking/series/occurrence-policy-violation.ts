import type { Temporal } from 'temporal-polyfill';
import type { Blackout } from '../../blackout/blackout.js';
import type { DomainError } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { blackoutRefusal, blackoutViolation } from '../blackout-refusal.js';
import { bookingPolicyRefusal } from '../booking-policy.js';
import type { PolicyRefusal } from '../create-refusal.js';

/**
 * The first policy one occurrence breaks, in the order a single booking is checked (a blackout in
 * its way last), or null. `policyRefusal` stands for bookingPolicyRefusal of a new start (a search
 * remembers it per policy).
 */
export function occurrencePolicyViolation(
  resource: Resource,
  start: Temporal.Instant,
  end: Temporal.Instant,
  now: Temporal.Instant,
  blackouts: readonly Blackout[],
  startChanged = true,
  policyRefusal?: PolicyRefusal,
): DomainError | null {
  const policy = startChanged && policyRefusal ? policyRefusal(resource, start, end, now) : bookingPolicyRefusal(resource, start, end, now, startChanged);
  if (policy) return policy;
  const blackout = blackoutRefusal(blackouts, resource.id, start, end);
  return blackout ? blackoutViolation(blackout) : null;
}
