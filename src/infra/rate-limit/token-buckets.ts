import { sql } from 'kysely';
import { asyncCommit } from '../db/async-commit.js';
import type { Executor } from '../db/database.js';
import { compileOnce, holesOf } from '../db/sql-template.js';

/** The bucket after one statement: the tokens left in it and how many the statement took. */
export type BucketAfterTake = { tokens: number; taken: number };

const h = holesOf();
/** The bucket refilled for the time since its last statement: capacity per 60 s, continuously, never above capacity. */
const refilled = sql`least(${h.capacity}::float8, b.tokens + greatest(0, extract(epoch from now() - b.updated_at)::float8) * ${h.capacity}::float8 / 60)`;

/**
 * One statement, atomic across processes and nodes: refills the bucket, then takes up to `want`
 * whole tokens. The database's clock (the statement's start) is the one clock every node shares.
 * Committed without waiting for the disk: a count lost to a crash costs nothing.
 */
const takeStatement = compileOnce(sql`
  insert into rate_limit_buckets as b (key, tokens, updated_at, taken)
  select ${h.key}, ${h.capacity}::float8 - ${h.want}::int, now(), ${h.want}::int from ${asyncCommit}
  on conflict (key) do update set
    tokens = ${refilled} - least(${h.want}::int, floor(${refilled}))::int,
    taken = least(${h.want}::int, floor(${refilled}))::int,
    updated_at = greatest(b.updated_at, now())
  returning tokens, taken`);

/** Takes up to `want` (1 ≤ want ≤ capacity) tokens from the bucket `key` holding at most `capacity`, refilled by `capacity` per minute. */
export async function takeTokens(db: Executor, key: string, capacity: number, want: number): Promise<BucketAfterTake> {
  const result = await db.executeQuery(takeStatement.fill({ key, capacity, want }));
  const row = result.rows[0] as { tokens: number; taken: number };
  return { tokens: Number(row.tokens), taken: Number(row.taken) };
}

/** Deletes up to `limit` buckets idle since before `before` (a bucket idle for a minute is full: as good as none). */
export async function deleteIdleBuckets(db: Executor, before: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from rate_limit_buckets where ctid in (select ctid from rate_limit_buckets where updated_at < ${before} limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
