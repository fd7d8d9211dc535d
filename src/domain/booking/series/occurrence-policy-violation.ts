import type { Temporal } from 'temporal-polyfill';
import { DomainError } from '../../domain-error.js';
import type { Resource } from '../../resource/resource.js';
import { assertBookingPolicy } from '../booking-policy.js';

/** The first policy one occurrence breaks, in the order a single booking is checked, or null. */
export function occurrencePolicyViolation(resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant, startChanged = true): DomainError | null {
  try {
    assertBookingPolicy(resource, start, end, now, startChanged);
    return null;
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
}
