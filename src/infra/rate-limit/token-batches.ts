import type { Executor } from '../db/database.js';
import { takeTokens } from './token-buckets.js';

/** A process takes at most this share of what is left in a bucket at once … */
const batchShare = 1 / 100;
/** … and never more than this many tokens. */
const maxBatch = 50;
/** Tokens a process took but did not use within this time are given up (counted as used: never more than the limit). */
const holdMs = 1_000;
/** Clients whose batches a process keeps; past it, they are all given up. */
const maxClients = 10_000;

/** The bucket as one request sees it: tokens left (in the bucket and held here), and whether it got one. */
export type TokenTaken = { tokens: number; allowed: boolean };

/**
 * Takes one token per request from the shared buckets, fetching them in small batches: a busy
 * client far from its limit costs a statement every few requests instead of each one, and one
 * near its limit (or new) a statement per request, exact. A request is allowed only with a
 * token taken from the shared bucket, so no process, however many, lets more than the limit through.
 */
export function createTokenSource(db: Executor, capacity: number): (key: string) => Promise<TokenTaken> {
  const held = new Map<string, { count: number; until: number; bucket: number }>();
  return async (key) => {
    const local = held.get(key);
    if (local && local.count > 0 && Date.now() < local.until) {
      local.count -= 1;
      return { tokens: local.bucket + local.count, allowed: true };
    }
    const want = local ? Math.min(maxBatch, Math.max(1, Math.floor(local.bucket * batchShare))) : 1;
    const { tokens, taken } = await takeTokens(db, key, capacity, want);
    const now = Date.now();
    const current = held.get(key);
    const still = current && now < current.until ? current.count : 0;
    if (!current && held.size >= maxClients) held.clear();
    const count = still + Math.max(0, taken - 1);
    held.set(key, { count, until: now + holdMs, bucket: tokens });
    return { tokens: tokens + count, allowed: taken > 0 };
  };
}
