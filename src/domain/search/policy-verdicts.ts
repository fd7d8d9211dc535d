import type { Temporal } from 'temporal-polyfill';
import { bookingPolicyRefusal } from '../booking/booking-policy.js';
import type { PolicyRefusal } from '../booking/create-refusal.js';
import type { DomainError } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';

/**
 * bookingPolicyRefusal remembered per policy key and times: thousands of resources share a few
 * policies, and the operating-hours walk is the costly part of a verdict.
 */
export function rememberedPolicyVerdicts(policyKeys: ReadonlyMap<string, string>): PolicyRefusal {
  const verdicts = new Map<string, DomainError | null>();
  return (resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant) => {
    const key = `${policyKeys.get(resource.id) ?? resource.id}|${start.epochMilliseconds}|${end.epochMilliseconds}`;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      verdict = bookingPolicyRefusal(resource, start, end, now);
      verdicts.set(key, verdict);
    }
    return verdict;
  };
}
