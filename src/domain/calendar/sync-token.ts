import type { Temporal } from 'temporal-polyfill';

/**
 * A sync token (RFC 6578) is a URI naming a position in the read model's changes (a transaction
 * id, calendar-objects.ts findSyncPosition) and the day it was given out. Older than this, it is
 * refused (403 DAV:valid-sync-token) and the client lists the calendar again: rows removed from the
 * read model altogether (retention's archive, contract §13) leave no change to report.
 */
export const syncTokenMaxAgeDays = 30;

const prefix = 'urn:workspace-booking:sync:';
const dayOf = (now: Temporal.Instant) => Math.floor(now.epochMilliseconds / 86_400_000);

export function syncTokenText(position: bigint, now: Temporal.Instant): string {
  return `${prefix}${position}-${dayOf(now)}`;
}

/** What a client's token says: a position to read changes from, or why it cannot be one. */
export type SyncTokenReading = { kind: 'position'; position: bigint } | { kind: 'unknown' } | { kind: 'too-old' };

/** A token this service gave out and still honours; `horizon`: no token names a later position. */
export function readSyncToken(text: string, now: Temporal.Instant, horizon: bigint): SyncTokenReading {
  const match = /^urn:workspace-booking:sync:(\d{1,19})-(\d{1,9})$/.exec(text.trim());
  if (!match) return { kind: 'unknown' };
  const position = BigInt(match[1]!);
  const day = Number(match[2]!);
  const today = dayOf(now);
  if (position < 1n || position > horizon || day > today) return { kind: 'unknown' };
  if (today - day > syncTokenMaxAgeDays) return { kind: 'too-old' };
  return { kind: 'position', position };
}
