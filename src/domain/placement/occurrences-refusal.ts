import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import type { Blackout } from '../blackout/blackout.js';
import { conflictRefusal } from '../booking/find-conflicts.js';
import type { HeldBooking } from '../booking/booking.js';
import { utcText } from '../booking/booking-time.js';
import { buffersOf, occupiedMs, occupiedMsOf } from '../booking/occupied-range.js';
import { DomainError, type BookingConflict } from '../domain-error.js';
import { emptyQuotaLedger, type QuotaLedger } from '../quota/quota-refusal.js';
import { quotaMatches } from '../quota/quota.js';
import { quotaUsagesAt, type CountedBooking, type QuotaUsage } from '../quota/quota-usage.js';
import type { Resource } from '../resource/resource.js';
import { placementRefusal, type Placement, type PlacementOptions } from './placement-refusal.js';

/** One occurrence to place: its times, and whether it moves a booking already made or takes a cancelled one's place (PlacementOptions). */
export type PlacedOccurrence = { start: Temporal.Instant; end: Temporal.Instant } & Pick<PlacementOptions, 'move' | 'addsBooking'>;

/** What the occurrences of one series are judged on. */
export type OccurrencesState = {
  resource: Resource;
  /** Active bookings of the resource that may overlap an occurrence, those the series moves left out. */
  overlapping: readonly HeldBooking[];
  /** Active bookings of the booker on the resource (a count capped at the limit, plus the series' own, is enough). */
  activeBookingsOfBooker: number;
  /** The workspace's quotas and the booker's counted bookings around the occurrences, those the series moves or cancels left out. */
  quotaLedger?: QuotaLedger;
  blackouts: readonly Blackout[];
};

const nothingInTheWay: readonly HeldBooking[] = [];
const noQuotas: readonly QuotaUsage[] = [];

const told = (refusal: DomainError, start: Temporal.Instant) => new DomainError(refusal.code, `the occurrence starting ${utcText(start)}: ${refusal.message}`, refusal.details);

/** The first occurrence refused otherwise than by a conflict, or the conflicts of all (null: none). */
type Judged = { refused: DomainError; start: Temporal.Instant } | { conflicts: Map<string, BookingConflict> | null };

/** One occurrence's refusal, as the placement told it. */
export type RefusedOccurrence = { start: Temporal.Instant; refusal: DomainError };

/**
 * Each occurrence's verdict in time order, `onRefusal` told of every refusal. `leaveOutRefused`:
 * a refused occurrence is not booked, so it neither counts towards the booker's bookings nor the
 * quotas of those after it; else every occurrence counts, as in a series booked whole.
 */
function eachVerdict(
  placement: Omit<Placement, 'startTime' | 'endTime'>,
  occurrences: readonly PlacedOccurrence[],
  state: OccurrencesState,
  actor: Principal,
  now: Temporal.Instant,
  options: Pick<PlacementOptions, 'policyRefusal' | 'callerChecks'>,
  leaveOutRefused: boolean,
  onRefusal: (refusal: DomainError, start: Temporal.Instant) => boolean,
): void {
  const { resource } = state;
  const buffers = buffersOf(resource);
  // Hundreds of occurrences meet hundreds of bookings: each occurrence is handed those near it, picked on epoch numbers.
  const timed = state.overlapping.map((booking) => ({ booking, ...occupiedMsOf(booking) }));
  const ledger = state.quotaLedger ?? emptyQuotaLedger;
  const counted: CountedBooking[] | null = ledger.quotas.length > 0 && ledger.quotas.some((quota) => quotaMatches(quota, resource)) ? [...ledger.counted] : null;
  let added = 0;
  for (let i = 0; i < occurrences.length; i++) {
    const occurrence = occurrences[i]!;
    const { startMs, endMs } = occupiedMs(occurrence.start.epochMilliseconds, occurrence.end.epochMilliseconds, buffers);
    const near = timed.length === 0 ? nothingInTheWay : timed.filter((t) => t.startMs < endMs && t.endMs > startMs).map((t) => t.booking);
    const quotas = counted ? quotaUsagesAt(ledger.quotas, counted, occurrence.start) : noQuotas;
    const refusal = placementRefusal(
      { startTime: occurrence.start, endTime: occurrence.end, units: placement.units, bookerProfileId: placement.bookerProfileId, bookerEmail: placement.bookerEmail },
      { resource, overlapping: near, activeBookingsOfBooker: state.activeBookingsOfBooker + added, quotas, blackouts: state.blackouts },
      actor,
      now,
      { policyRefusal: options.policyRefusal, callerChecks: options.callerChecks, move: occurrence.move, addsBooking: occurrence.addsBooking },
    );
    if (refusal && !onRefusal(refusal, occurrence.start)) return;
    if (refusal && leaveOutRefused) continue;
    if (occurrence.addsBooking ?? !occurrence.move) added += 1;
    counted?.push({ id: `occurrence-${i}`, resource, startTime: occurrence.start, endTime: occurrence.end });
  }
}

function judge(...args: Parameters<typeof occurrencesRefusal>): Judged {
  let conflicts: Map<string, BookingConflict> | null = null;
  let refused: { refused: DomainError; start: Temporal.Instant } | null = null;
  eachVerdict(args[0], args[1], args[2], args[3], args[4], args[5] ?? {}, false, (refusal, start) => {
    if (refusal.code !== 'booking_conflict') {
      refused = { refused: refusal, start };
      return false;
    }
    conflicts ??= new Map();
    for (const conflict of refusal.details.conflicts ?? []) conflicts.set(conflict.bookingId, conflict);
    return true;
  });
  return refused ?? { conflicts };
}

/**
 * Every occurrence the placement refuses, in time order, each judged on the state the accepted
 * ones before it leave (a refused one is left out of the series, contract §26's
 * schedulingConflictsAllowed): what a room decides a series invitation on.
 */
export function refusedOccurrences(...args: Parameters<typeof occurrencesRefusal>): RefusedOccurrence[] {
  const refused: RefusedOccurrence[] = [];
  eachVerdict(args[0], args[1], args[2], args[3], args[4], args[5] ?? {}, true, (refusal, start) => {
    refused.push({ start, refusal: told(refusal, start) });
    return true;
  });
  return refused;
}

/**
 * A series is the placement's verdict per occurrence (contract §6), in time order, each on the
 * state the occurrences before it leave: the booker's count grows by each that adds a booking,
 * the quotas' usage by each. The series is refused with the first occurrence's refusal other than
 * a conflict (told with its start), else with every booking in the way of any occurrence, each
 * once, earliest first (409); null when every occurrence would be accepted.
 */
export function occurrencesRefusal(
  placement: Omit<Placement, 'startTime' | 'endTime'>,
  occurrences: readonly PlacedOccurrence[],
  state: OccurrencesState,
  actor: Principal,
  now: Temporal.Instant,
  options: Pick<PlacementOptions, 'policyRefusal' | 'callerChecks'> = {},
): DomainError | null {
  const judged = judge(placement, occurrences, state, actor, now, options);
  if ('refused' in judged) return told(judged.refused, judged.start);
  if (!judged.conflicts) return null;
  const inTheWay = [...judged.conflicts.values()].sort((a, b) => Temporal.Instant.compare(Temporal.Instant.from(a.startTime), Temporal.Instant.from(b.startTime)) || a.bookingId.localeCompare(b.bookingId));
  return conflictRefusal(inTheWay);
}

/** Whether occurrencesRefusal answers null, without telling a refusal: what the free search asks of thousands of resources. */
export function areOccurrencesAccepted(...args: Parameters<typeof occurrencesRefusal>): boolean {
  const judged = judge(...args);
  return !('refused' in judged) && judged.conflicts === null;
}
