import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { asyncCommit } from '../db/async-commit.js';
import { compileOnce, holesOf } from '../db/sql-template.js';

/** The bucket after one request: the tokens left and whether the request took one. */
export type BucketAfterRequest = { tokens: number; allowed: boolean };

const h = holesOf();

/**
 * One statement per request, atomic across processes and nodes: refills the bucket for the time
 * since its last request (capacity per 60 s, continuously, never above capacity), then takes a
 * token when a whole one is there. The database's clock (the statement's start) is the one clock every node shares.
 * Committed without waiting for the disk: a count lost to a crash costs nothing.
 */
const takeStatement = compileOnce(sql`
  insert into rate_limit_buckets as b (key, tokens, updated_at, allowed)
  select ${h.key}, ${h.capacity}::float8 - 1, now(), true from ${asyncCommit}
  on conflict (key) do update set
    tokens = case
      when least(${h.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)::float8) * ${h.capacity}::float8 / 60) >= 1
      then least(${h.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)::float8) * ${h.capacity}::float8 / 60) - 1
      else least(${h.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)::float8) * ${h.capacity}::float8 / 60)
    end,
    allowed = least(${h.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)::float8) * ${h.capacity}::float8 / 60) >= 1,
    updated_at = greatest(b.updated_at, now())
  returning tokens, allowed`);

/** Takes a token from the bucket `key` holding at most `capacity` (refilled by `capacity` per minute). */
export async function takeToken(db: Executor, key: string, capacity: number): Promise<BucketAfterRequest> {
  const result = await db.executeQuery(takeStatement.fill({ key, capacity }));
  const row = result.rows[0] as { tokens: number; allowed: boolean };
  return { tokens: Number(row.tokens), allowed: row.allowed };
}

/** Deletes up to `limit` buckets idle since before `before` (a bucket idle for a minute is full: as good as none). */
export async function deleteIdleBuckets(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from rate_limit_buckets where ctid in (select ctid from rate_limit_buckets where updated_at < ${before} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
