import { coversResource, type Blackout } from '../blackout/blackout.js';
import type { HeldBooking } from '../booking/booking.js';
import { buffersOf } from '../booking/occupied-range.js';
import { unitsHeldBy } from '../booking/unit-use.js';
import { openIntervals, type Interval } from '../resource/availability.js';
import type { Resource } from '../resource/resource.js';
import { occupationMet } from './occupation.js';
import { unionWithin, without, type PeriodMs } from './period-set.js';

/** RFC 5545's FBTYPE of a busy period. */
export type FreeBusyType = 'BUSY' | 'BUSY-TENTATIVE' | 'BUSY-UNAVAILABLE';

export type FreeBusyPeriod = PeriodMs & { type: FreeBusyType };

export type FreeBusyQuery = {
  resource: Resource;
  /**
   * The bookings that occupy the resource: its own and those of the resources sharing one with it
   * (contract §22), at least all whose occupied ranges reach [from − after, to + before) with the
   * resource's buffers. Inactive statuses and series parents are left out here.
   */
  bookings: readonly HeldBooking[];
  /** Blackouts that may overlap the range (any resource: those covering this one count). */
  blackouts: readonly Blackout[];
  range: Interval;
  /** openIntervals of the resource's availability over the range, where the caller has them already (resources sharing hours). */
  open?: readonly Interval[];
};

const ms = (intervals: readonly Interval[]): PeriodMs[] => intervals.map((i) => ({ startMs: i.start.epochMilliseconds, endMs: i.end.epochMilliseconds }));

/** Where a one-unit booking of the resource cannot be placed for the units `bookings` hold: where the occupation it would meet leaves none. */
function full(resource: Resource, bookings: readonly HeldBooking[], fromMs: number, toMs: number): PeriodMs[] {
  const met = occupationMet(unitsHeldBy(bookings), buffersOf(resource), fromMs, toMs);
  return unionWithin(met.filter((run) => run.units >= resource.units), fromMs, toMs);
}

/**
 * Contract §25's free/busy of a resource over a range: in time order, disjoint, clipped to it.
 * BUSY where a one-unit create would meet no free unit for the confirmed bookings (checked-in ones
 * are confirmed), BUSY-TENTATIVE where only the pending ones also counted leave none,
 * BUSY-UNAVAILABLE where the rest is closed (operating hours) or blacked out; an inactive or
 * removed resource is unavailable throughout. Every other instant is free.
 *
 * The busy periods are the create's own: the occupation a booking placed there meets
 * (occupationMet, with the buffers a new booking takes now), so a one-unit create of [s, e)
 * conflicts (409) exactly when [s, e) touches BUSY or BUSY-TENTATIVE. Closed hours and blackouts
 * concern a booking's own times (buffers aside), as the create's 422s do.
 */
export function freeBusy({ resource, bookings, blackouts, range, open }: FreeBusyQuery): FreeBusyPeriod[] {
  const fromMs = range.start.epochMilliseconds;
  const toMs = range.end.epochMilliseconds;
  if (fromMs >= toMs) return [];
  if (!resource.isActive || resource.removed) return [{ type: 'BUSY-UNAVAILABLE', startMs: fromMs, endMs: toMs }];
  const busy = full(
    resource,
    bookings.filter((b) => b.status === 'confirmed'),
    fromMs,
    toMs,
  );
  const tentative = without(full(resource, bookings, fromMs, toMs), busy);
  const taken = unionWithin([...busy, ...tentative], fromMs, toMs);
  const closed = without([{ startMs: fromMs, endMs: toMs }], ms(open ?? openIntervals(resource.availability, range.start, range.end)));
  const blackedOut = blackouts.filter((b) => coversResource(b, resource.id)).map((b) => ({ startMs: Date.parse(b.from), endMs: Date.parse(b.to) }));
  const unavailable = without(unionWithin([...closed, ...blackedOut], fromMs, toMs), taken);
  return [
    ...busy.map((p) => ({ ...p, type: 'BUSY' as const })),
    ...tentative.map((p) => ({ ...p, type: 'BUSY-TENTATIVE' as const })),
    ...unavailable.map((p) => ({ ...p, type: 'BUSY-UNAVAILABLE' as const })),
  ].sort((a, b) => a.startMs - b.startMs);
}
