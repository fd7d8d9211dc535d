import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../access/principal.js';
import { bookerOf } from '../booking/booker.js';
import { placementRefusal, type PlacementState } from '../placement/placement-refusal.js';
import { DomainError } from '../domain-error.js';
import type { WaitlistEvent } from './waitlist-events.js';
import type { WaitlistEntry } from './waitlist-entry.js';

export type JoinWaitlist = {
  id: string;
  title: string;
  startTime: Temporal.Instant;
  endTime: Temporal.Instant;
  units: number;
  bookerEmail?: string | null;
  bookerProfileId?: string;
};

/** The create's state, with the resource's waiting entries (for the position). */
export type JoinWaitlistState = PlacementState & { waiting: readonly WaitlistEntry[] };

export const slotAvailable = () => new DomainError('slot_available', 'the slot is free: book it instead of waiting');

/**
 * Accepted only when the same create would be refused by its conflicts alone (contract §23): the
 * create's verdict decides; accepted → 409 slot_available, any other refusal → that refusal.
 */
export function decideJoinWaitlist(command: JoinWaitlist, state: JoinWaitlistState, actor: Principal, now: Temporal.Instant): WaitlistEvent {
  const refusal = placementRefusal(command, state, actor, now);
  if (refusal === null) throw slotAvailable();
  if (refusal.code !== 'booking_conflict') throw refusal;
  const resource = state.resource!;
  const booker = bookerOf(command, actor);
  const at = now.toString();
  const entry: WaitlistEntry = {
    id: command.id,
    workspace: resource.workspace,
    bookableResourceId: resource.id,
    resourceType: resource.resourceType,
    resourceId: resource.resourceId,
    title: command.title,
    startTime: command.startTime.toString(),
    endTime: command.endTime.toString(),
    units: command.units,
    bookerProfileId: booker.profileId,
    bookerEmail: booker.email,
    createdBy: actor.sub,
    joinedAs: { level: actor.level, groups: actor.groups },
    status: 'waiting',
    bookingId: null,
    policy: null,
    createdAt: at,
    closedAt: null,
  };
  return { type: 'WaitlistJoined', data: { entry, by: actor.sub, at } };
}
