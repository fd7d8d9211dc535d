import type { WaitlistEntry } from './waitlist-entry.js';

/** An entry as an event of any age carries it: those joined before `joinedAs` existed lack it. */
export type StoredWaitlistEntry = Omit<WaitlistEntry, 'joinedAs'> & Partial<Pick<WaitlistEntry, 'joinedAs'>>;

/**
 * The one upcaster of a stored waitlist entry. An entry joined before the joining principal was
 * recorded: one its booker joined is a user's (LV4), one joined on another's behalf an admin's of
 * the least level that may (LV3), neither with groups: the verdict its promotions had then.
 */
export function upcastWaitlistEntry(stored: StoredWaitlistEntry): WaitlistEntry {
  return { ...stored, joinedAs: stored.joinedAs ?? { level: stored.createdBy === stored.bookerProfileId ? 4 : 3, groups: [] } };
}
