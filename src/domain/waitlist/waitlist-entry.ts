import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';

export type WaitlistStatus = 'waiting' | 'fulfilled' | 'refused' | 'expired' | 'cancelled';

/** A waiter for a taken slot of one resource (contract §23); times are ISO 8601 UTC. */
export type WaitlistEntry = {
  id: string;
  workspace: string;
  bookableResourceId: string;
  resourceType: 'zone' | 'device';
  resourceId: string;
  title: string;
  startTime: string;
  endTime: string;
  units: number;
  bookerProfileId: string;
  bookerEmail: string | null;
  /** The acting `sub` that joined: the booker, or whoever joined on their behalf. */
  createdBy: string;
  /** The level and groups of `createdBy` when it joined: a promotion is that principal's create (upcastWaitlistEntry for entries joined before). */
  joinedAs: JoinedAs;
  status: WaitlistStatus;
  /** The booking a fulfilled entry became. */
  bookingId: string | null;
  /** The policy that refused a `refused` entry at its promotion. */
  policy: string | null;
  createdAt: string;
  closedAt: string | null;
};

/** The part of the joining principal an entry records beside its `sub` (`createdBy`). */
export type JoinedAs = Pick<Principal, 'level' | 'groups'>;

/** An entry as answers and published events tell it: who joined is told by `createdBy`, the level and groups are the service's own. */
export type AnsweredEntry = Omit<WaitlistEntry, 'joinedAs'>;

export function answeredEntry(entry: WaitlistEntry): AnsweredEntry {
  const { joinedAs: _joinedAs, ...answered } = entry;
  return answered;
}

/** An entry as answered: `position` is 1 + the earlier waiting entries of the resource whose times overlap, null once closed. */
export type PositionedEntry = AnsweredEntry & { position: number | null };

const overlap = (a: Pick<WaitlistEntry, 'startTime' | 'endTime'>, b: Pick<WaitlistEntry, 'startTime' | 'endTime'>) =>
  Temporal.Instant.compare(Temporal.Instant.from(a.startTime), Temporal.Instant.from(b.endTime)) < 0 &&
  Temporal.Instant.compare(Temporal.Instant.from(b.startTime), Temporal.Instant.from(a.endTime)) < 0;

/** The position of a new waiting `entry` behind `earlier` (the resource's waiting entries made before it). */
export function positionBehind(entry: WaitlistEntry, earlier: readonly WaitlistEntry[]): number {
  return 1 + earlier.filter((other) => overlap(other, entry)).length;
}
