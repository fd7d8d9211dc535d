import type { Temporal } from 'temporal-polyfill';
import { canSeeWorkspace, isAdmin, type Principal } from '../access/principal.js';
import { invalidTransition, notFound } from '../domain-error.js';
import type { WaitlistEvent } from './waitlist-events.js';
import type { AnsweredEntry, WaitlistEntry } from './waitlist-entry.js';

/** Whether `actor` may see and leave `entry`: its booker, its creator, or LV1–LV3 of its workspace. */
export const canReachEntry = (entry: AnsweredEntry, actor: Principal) =>
  canSeeWorkspace(actor, entry.workspace) && (isAdmin(actor) || entry.bookerProfileId === actor.sub || entry.createdBy === actor.sub);

/** DELETE of an entry: closed `cancelled` (contract §23); another user's entry, or none, is 404; a closed one 409. */
export function decideLeaveWaitlist(entry: WaitlistEntry | null, actor: Principal, now: Temporal.Instant): WaitlistEvent {
  if (!entry || !canReachEntry(entry, actor)) throw notFound('waitlist entry');
  if (entry.status !== 'waiting') throw invalidTransition(`the entry is already ${entry.status}`);
  const at = now.toString();
  return { type: 'WaitlistClosed', data: { entry: { ...entry, status: 'cancelled', closedAt: at }, by: actor.sub, at } };
}
