import { sql } from 'kysely';
import type { Executor } from '../db/database.js';
import { asyncCommit } from '../db/async-commit.js';
import { compileOnce, holesOf } from '../db/sql-template.js';

/** Whose key it is: the scope of contract §18. */
export type IdempotencyScope = { workspace: string; sub: string; key: string };

/** The answer kept for a completed request. */
export type KeptAnswer = { status: number; contentType: string | null; body: string };

/** What the row of a key that could not be claimed holds. */
export type HeldKey = { fingerprint: string; state: 'in_flight' | 'done'; answer: KeptAnswer | null };

const h = holesOf();

// Every write below commits without waiting for the disk (asyncCommit): a claim or a kept answer lost
// to a crash within a fraction of a second leaves the key free, as its lease would; the request's
// own effect (its events) is committed durably all the same.

// One statement: a new key is claimed; so is one whose holder's lease ran out or whose answer expired.
const claimStatement = compileOnce(sql`
  insert into idempotency_keys as k (workspace, sub, key, fingerprint, claim_id, state, lease_until, expires_at)
  select ${h.workspace}, ${h.sub}, ${h.key}, ${h.fingerprint}, ${h.claimId}::uuid, 'in_flight', ${h.leaseUntil}::timestamptz, ${h.expiresAt}::timestamptz from ${asyncCommit}
  on conflict (workspace, sub, key) do update set
    fingerprint = excluded.fingerprint, claim_id = excluded.claim_id, state = 'in_flight', status = null,
    content_type = null, body = null, lease_until = excluded.lease_until, expires_at = excluded.expires_at
  where (k.state = 'in_flight' and k.lease_until <= ${h.now}) or k.expires_at <= ${h.now}
  returning 1 as claimed`);

const readStatement = compileOnce(sql`
  select fingerprint, state, status, content_type, body from idempotency_keys
  where workspace = ${h.workspace} and sub = ${h.sub} and key = ${h.key} and expires_at > ${h.now}`);

const completeStatement = compileOnce(sql`
  update idempotency_keys set state = 'done', status = ${h.status}, content_type = ${h.contentType}, body = ${h.body}, expires_at = ${h.expiresAt}
  from ${asyncCommit}
  where workspace = ${h.workspace} and sub = ${h.sub} and key = ${h.key} and claim_id = ${h.claimId} and state = 'in_flight'`);

const releaseStatement = compileOnce(sql`
  delete from idempotency_keys using ${asyncCommit}
  where workspace = ${h.workspace} and sub = ${h.sub} and key = ${h.key} and claim_id = ${h.claimId} and state = 'in_flight'`);

const scopeArgs = (scope: IdempotencyScope) => ({ workspace: scope.workspace, sub: scope.sub, key: scope.key });

/** Claims the key for a request in flight until `leaseUntil`; false when another holds it or its answer is kept. */
export async function claimIdempotencyKey(
  db: Executor,
  scope: IdempotencyScope,
  claim: { fingerprint: string; claimId: string; now: Date; leaseUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const result = await db.executeQuery(claimStatement.fill({ ...scopeArgs(scope), ...claim }));
  return result.rows.length > 0;
}

/** The key's row as it stands; null when there is none (or only an expired one). */
export async function readIdempotencyKey(db: Executor, scope: IdempotencyScope, now: Date): Promise<HeldKey | null> {
  const result = await db.executeQuery(readStatement.fill({ ...scopeArgs(scope), now }));
  const row = result.rows[0] as { fingerprint: string; state: 'in_flight' | 'done'; status: number | null; content_type: string | null; body: string | null } | undefined;
  if (!row) return null;
  const answer = row.state === 'done' && row.status !== null ? { status: row.status, contentType: row.content_type, body: row.body ?? '' } : null;
  return { fingerprint: row.fingerprint, state: row.state, answer };
}

/** Keeps the answer of the claim `claimId` until `expiresAt`; nothing when the claim was taken over meanwhile. */
export async function completeIdempotencyKey(db: Executor, scope: IdempotencyScope, claimId: string, answer: KeptAnswer, expiresAt: Date): Promise<void> {
  await db.executeQuery(completeStatement.fill({ ...scopeArgs(scope), claimId, status: answer.status, contentType: answer.contentType, body: answer.body, expiresAt }));
}

/** Frees the key of the claim `claimId` (its answer is not kept): the next request with it runs afresh. */
export async function releaseIdempotencyKey(db: Executor, scope: IdempotencyScope, claimId: string): Promise<void> {
  await db.executeQuery(releaseStatement.fill({ ...scopeArgs(scope), claimId }));
}

/** Deletes up to `limit` keys whose answers expired before `now`; answers how many. */
export async function deleteExpiredIdempotencyKeys(db: Executor, now: Date, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where ctid in (
      select ctid from idempotency_keys where expires_at <= ${now} and (state = 'done' or lease_until <= ${now}) limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
