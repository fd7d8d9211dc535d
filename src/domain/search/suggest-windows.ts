import { Temporal } from 'temporal-polyfill';
import type { PolicyRefusal } from '../placement/placement-refusal.js';
import type { Resource } from '../resource/resource.js';
import { isFreeFor, type FreeSearch } from './find-free-resources.js';
import type { FreeResourceCandidate } from './free-resource-candidate.js';

export type Suggestion = { resource: Resource; startTime: Temporal.Instant; endTime: Temporal.Instant };

export const maxSuggestions = 5;
const stepMinutes = 15;

/**
 * Contract §16: windows of the search's length on resources not free at the asked time, whose
 * start is from ± k × 15 minutes (k ≥ 1) on the same calendar day as from in `timeZone`, that a
 * create would accept now; nearest first, then earlier first, then the resources' order. `taken`
 * holds those resources in that order, each with its bookings over the whole day.
 */
export function suggestWindows(taken: readonly FreeResourceCandidate[], search: FreeSearch, timeZone: string, policyRefusal: PolicyRefusal): Suggestion[] {
  if (taken.length === 0) return [];
  const day = search.startTime.toZonedDateTimeISO(timeZone).toPlainDate();
  const sameDay = (instant: Temporal.Instant) => instant.toZonedDateTimeISO(timeZone).toPlainDate().equals(day);
  const suggestions: Suggestion[] = [];
  for (let k = 1; suggestions.length < maxSuggestions; k++) {
    const earlier = search.startTime.subtract({ minutes: k * stepMinutes });
    const later = search.startTime.add({ minutes: k * stepMinutes });
    const starts = [earlier, later].filter(sameDay);
    if (starts.length === 0) break;
    for (const start of starts) {
      const end = start.add(search.startTime.until(search.endTime));
      for (const candidate of taken) {
        if (suggestions.length === maxSuggestions) break;
        if (isFreeFor(candidate, search, policyRefusal, start, end)) suggestions.push({ resource: candidate.resource, startTime: start, endTime: end });
      }
    }
  }
  return suggestions;
}
