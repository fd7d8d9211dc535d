import type { Temporal } from 'temporal-polyfill';
import { buffersOf, occupiedMs } from '../booking/occupied-range.js';
import { availableUnits, unitsHeldBy } from '../booking/unit-use.js';
import type { Resource } from '../resource/resource.js';
import type { FreeResourceCandidate } from './free-resource-candidate.js';

/** A resource the search lists, with the fewest free units of the asked occupied ranges (contract §21, §16). */
export type ListedResource = { resource: Resource; availableUnits: number };

/** The candidate listed for the times asked (one window, or a series' occurrences): its fewest free units over all of them. */
export function listedResource(candidate: FreeResourceCandidate, times: readonly { start: Temporal.Instant; end: Temporal.Instant }[]): ListedResource {
  const { resource } = candidate;
  if (candidate.bookings.length === 0) return { resource, availableUnits: resource.units };
  const held = unitsHeldBy(candidate.bookings);
  const buffers = buffersOf(resource);
  let fewest = resource.units;
  for (const { start, end } of times) {
    fewest = Math.min(fewest, availableUnits(held, occupiedMs(start.epochMilliseconds, end.epochMilliseconds, buffers), resource.units));
  }
  return { resource, availableUnits: fewest };
}
