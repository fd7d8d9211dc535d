import type { Temporal } from 'temporal-polyfill';
import { bookingPolicyRefusal } from '../booking/booking-policy.js';
import type { PolicyRefusal } from '../placement/placement-refusal.js';
import type { DomainError } from '../domain-error.js';
import type { Resource } from '../resource/resource.js';

/**
 * bookingPolicyRefusal remembered per policy key and times: thousands of resources share a few
 * policies, and the operating-hours walk is the costly part of a verdict. The times are told apart
 * by the instants themselves (a search asks every resource with the same ones: the window, the
 * series' remembered expansion): no key is written per ask, which a series search over 2,000
 * resources of 20 occurrences did 40,000 times. Equal times in other instants are decided again,
 * alike.
 */
export function rememberedPolicyVerdicts(policyKeys: ReadonlyMap<string, string>): PolicyRefusal {
  const verdicts = new WeakMap<Temporal.Instant, WeakMap<Temporal.Instant, Map<string, DomainError | null>>>();
  return (resource: Resource, start: Temporal.Instant, end: Temporal.Instant, now: Temporal.Instant) => {
    let byEnd = verdicts.get(start);
    if (!byEnd) verdicts.set(start, (byEnd = new WeakMap()));
    let byKey = byEnd.get(end);
    if (!byKey) byEnd.set(end, (byKey = new Map()));
    const key = policyKeys.get(resource.id) ?? resource.id;
    let verdict = byKey.get(key);
    if (verdict === undefined) {
      verdict = bookingPolicyRefusal(resource, start, end, now);
      byKey.set(key, verdict);
    }
    return verdict;
  };
}
