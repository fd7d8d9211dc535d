import { isAdmin, type Principal } from '../access/principal.js';
import { forbidden, type DomainError } from '../domain-error.js';

/** Whom a new booking belongs to (contract §17, booking on behalf). */
export type Booker = { profileId: string; email: string | null };

/** What a create or series body may say about its booker. */
export type NamedBooker = { bookerProfileId?: string; bookerEmail?: string | null };

/** The profile a body books for, without judging it: what the booker's counts are read for. */
export const namedBookerId = (named: NamedBooker, actor: Principal): string => named.bookerProfileId ?? actor.sub;

/**
 * LV1–LV3 may book for another user (their email is the body's, never the actor's); LV4 and LV5
 * only for themselves (403 naming anyone else). Booking for oneself defaults the email to the token's.
 */
export function bookerOf(named: NamedBooker, actor: Principal): Booker {
  const refusal = bookerRefusal(named, actor);
  if (refusal) throw refusal;
  const profileId = namedBookerId(named, actor);
  if (profileId === actor.sub) return { profileId, email: named.bookerEmail ?? actor.email };
  return { profileId, email: named.bookerEmail ?? null };
}

/** The 403 of an LV4 or LV5 naming another booker, or null. */
export function bookerRefusal(named: NamedBooker, actor: Principal): DomainError | null {
  return namedBookerId(named, actor) !== actor.sub && !isAdmin(actor) ? forbidden('only LV1–LV3 may book on behalf of another user (bookerProfileId)') : null;
}
