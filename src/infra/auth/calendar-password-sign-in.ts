import { createHash } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import {
  calendarPasswordChecksPerMinute,
  couldBeCalendarPasswordUsername,
  isCalendarPasswordExpired,
  type CalendarPassword,
} from '../../domain/calendar/calendar-password.js';
import { passwordChecksBucketKeyOf, rateLimitHeaders } from '../../domain/request/rate-limit.js';
import { boundedCache } from '../cache/bounded-cache.js';
import { findCalendarPasswordByUsername } from '../calendar/calendar-passwords.js';
import type { Executor } from '../db/database.js';
import { takeTokens } from '../rate-limit/token-buckets.js';
import { verifyCalendarPassword } from './calendar-password-hash.js';
import { couldBeCalendarPassword } from './calendar-password-secret.js';

/** What a sign-in with a calendar password comes to. */
export type CalendarPasswordSignIn =
  | { kind: 'signed-in'; password: CalendarPassword }
  | { kind: 'refused'; reason: string }
  | { kind: 'too-many-checks'; retryAfterSeconds: number };

/** Checks known good kept per process, and for how long. */
const knownGoodEntries = 10_000;
const knownGoodMs = 15 * 60_000;

/**
 * Signs in with a calendar password. The row is read on every request (one read of the unique
 * username index), so a deleted or expired password is refused at once on every node; only the
 * scrypt check is remembered, keyed by a digest of everything it depended on (the username, the
 * password presented, the row and its stored hash), so a password made again under the same row
 * can never pass on an old result. A check not known good first takes one of the username's
 * calendarPasswordChecksPerMinute from a bucket every node shares; without one it is not made.
 */
export function calendarPasswordSignIn(services: { db: Executor; now: () => Temporal.Instant }) {
  const knownGood = boundedCache<string, true>('calendar-password-checks', { maxEntries: knownGoodEntries }, { ttlMs: knownGoodMs });
  return async (username: string, presented: string): Promise<CalendarPasswordSignIn> => {
    if (!couldBeCalendarPasswordUsername(username)) return { kind: 'refused', reason: 'unknown calendar password username' };
    const stored = await findCalendarPasswordByUsername(services.db, username);
    if (!stored) return { kind: 'refused', reason: 'unknown or deleted calendar password' };
    if (isCalendarPasswordExpired(stored, services.now())) return { kind: 'refused', reason: `calendar password expired at ${stored.expiresAt}` };
    const { passwordHash, ...password } = stored;
    const checkKey = createHash('sha256').update(JSON.stringify([username, presented, stored.id, passwordHash])).digest('base64url');
    if (knownGood.get(checkKey)) return { kind: 'signed-in', password };
    const bucket = await takeTokens(services.db, passwordChecksBucketKeyOf(username), calendarPasswordChecksPerMinute, 1);
    if (bucket.taken === 0) {
      const { retryAfterSeconds } = rateLimitHeaders({ name: 'password-checks', perMinute: calendarPasswordChecksPerMinute }, { tokens: bucket.tokens, allowed: false });
      return { kind: 'too-many-checks', retryAfterSeconds: retryAfterSeconds ?? 1 };
    }
    if (!couldBeCalendarPassword(presented) || !(await verifyCalendarPassword(presented, passwordHash))) return { kind: 'refused', reason: 'wrong calendar password' };
    knownGood.set(checkKey, true);
    return { kind: 'signed-in', password };
  };
}
