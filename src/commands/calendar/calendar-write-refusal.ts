import { notFound, type DomainError } from '../../domain/domain-error.js';

/** The conditions of a write (RFC 9110 §13.1): If-Match and If-None-Match as the client sent them. */
export type CalendarWriteConditions = { ifMatch?: string; ifNoneMatch?: string };

/** What the refusals read of the stored object: its entity tag and UID. */
export type StoredTags = { etag: string; uid: string };

/**
 * A write of an organizer's event refused before any room is decided (contract §26): 412 for a
 * condition the stored object fails, 403 with the CalDAV precondition `valid-organizer` or
 * `no-uid-conflict`. Nothing is written.
 */
export class CalendarWriteRefused extends Error {
  constructor(
    readonly status: 403 | 412,
    readonly precondition: 'valid-organizer' | 'no-uid-conflict' | null,
    message: string,
  ) {
    super(message);
    this.name = 'CalendarWriteRefused';
  }
}

/** The entity tags a condition lists (`*` included), weak ones compared as strong as RFC 9110 §13.1.1 lets If-Match not. */
const tagsOf = (header: string) => header.split(',').map((tag) => tag.trim());

/** 412 when If-Match names no tag of the stored object (or `*` without one), or If-None-Match `*` / its tag while it exists. */
export function conditionRefusal({ ifMatch, ifNoneMatch }: CalendarWriteConditions, stored: StoredTags | null): CalendarWriteRefused | null {
  if (ifMatch !== undefined) {
    const tags = tagsOf(ifMatch);
    const holds = stored !== null && (tags.includes('*') || tags.includes(stored.etag));
    if (!holds) return new CalendarWriteRefused(412, null, 'If-Match names no current version of this object');
  }
  if (ifNoneMatch !== undefined && stored !== null) {
    const tags = tagsOf(ifNoneMatch);
    if (tags.includes('*') || tags.includes(stored.etag)) return new CalendarWriteRefused(412, null, 'the object exists (If-None-Match)');
  }
  return null;
}

/**
 * The first refusal of a write: its conditions; then, for a PUT, a UID held by another object of
 * the calendar or a UID other than the stored object's (RFC 4791 §5.3.2.1); for a DELETE, no object.
 */
export function calendarEventRefusal(
  conditions: CalendarWriteConditions,
  stored: StoredTags | null,
  write: { kind: 'put'; uid: string; uidHolder: string | null; name: string } | { kind: 'delete' },
): CalendarWriteRefused | DomainError | null {
  const failed = conditionRefusal(conditions, stored);
  if (failed) return failed;
  if (write.kind === 'delete') return stored ? null : notFound('calendar object');
  if (write.uidHolder !== null && write.uidHolder !== write.name) {
    return new CalendarWriteRefused(403, 'no-uid-conflict', `another object of this calendar (${write.uidHolder}) has this UID`);
  }
  if (stored && stored.uid !== write.uid) return new CalendarWriteRefused(403, 'no-uid-conflict', `this object's UID is ${stored.uid}: a new UID is a new object`);
  return null;
}
