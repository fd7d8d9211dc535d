import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import { blackoutStreamId, type Blackout } from '../../domain/blackout/blackout.js';
import { affectedBookings, decideBlackoutCancellations } from '../../domain/blackout/decide-blackout-cancellations.js';
import { decideCreateBlackout, type CreateBlackout } from '../../domain/blackout/decide-create-blackout.js';
import type { Booking } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { DomainError } from '../../domain/domain-error.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import type { DB } from '../../infra/db/schema.js';
import type { AppendInTransaction } from '../../infra/event-store/event-store.js';
import { WrongExpectedRevisionError } from '../../infra/event-store/wrong-expected-revision-error.js';
import { findActiveBookingsInBlackout, findResourcesByIds, findWorkspaceResourceIds } from '../../projections/blackout/blackout-queries.js';
import type { CommandContext } from '../command-context.js';

export type CreateBlackoutInput = {
  workspace?: string;
  resourceIds?: string[] | null;
  from: string;
  to: string;
  reason: string;
  cancelExisting?: boolean;
};

export type CreatedBlackout = Blackout & { affected: string[] };

/** The workspace of a blackout: the token's, or any that LV1 names; another level naming another one → 400. */
function blackoutWorkspace(actor: Principal, named: string | undefined): string {
  return workspaceScope(actor, named, '/body/workspace');
}

/**
 * A unit of work that met a resource registered meanwhile (its stream was not locked in step 1): a
 * deadlock with a booking on it, or its revision moved. Rare; try again a few times.
 */
const maxAttempts = 5;
const isRetryable = (error: unknown) => error instanceof WrongExpectedRevisionError || (error as { code?: string }).code === '40P01';

/**
 * Creates the blackout on the workspace stream `blackouts-<workspace>` and, with cancelExisting,
 * cancels the bookings it hits on their resources' streams, all in one transaction:
 * 1. with cancelExisting, lock the stream rows of the covered resources (in id order): every
 *    cancellation below appends to one of them, and a booking append holds its row before it asks
 *    for the blackout lock, so taking the rows first keeps the two from waiting on each other;
 * 2. take the workspace's blackout lock exclusive (migration 0019): a booking append that got past
 *    its guard has committed, and one that has not waits, then finds this blackout and is refused;
 * 3. read the bookings it hits, now that every one that passed the guard is visible;
 * 4. append the blackout and the cancellations (each with its stream's revision, read under its lock).
 */
export async function createBlackout(ctx: CommandContext, actor: Principal, input: CreateBlackoutInput): Promise<CreatedBlackout> {
  const now = ctx.now();
  const command: CreateBlackout = {
    id: randomUUID(),
    workspace: blackoutWorkspace(actor, input.workspace),
    resourceIds: input.resourceIds ?? null,
    from: parseClientInstant(input.from, '/body/from'),
    to: parseClientInstant(input.to, '/body/to'),
    reason: input.reason,
  };
  const named = [...new Set((command.resourceIds ?? []).map((id) => id.toLowerCase()))];
  const created = decideCreateBlackout(command, { resources: await findResourcesByIds(ctx.db, named) }, actor, now);
  const { blackout } = created.data;
  const { appendInOneTransaction } = ctx.eventStore;
  if (!appendInOneTransaction) throw new DomainError('dependency_unavailable', 'blackouts need the PostgreSQL event store');

  for (let attempt = 1; ; attempt++) {
    try {
      return await appendInOneTransaction(async (trx, append) => {
        if (input.cancelExisting) {
          const covered = blackout.resourceIds ?? (await findWorkspaceResourceIds(trx, blackout.workspace));
          await sql`select stream_id from streams where stream_id = any(${covered.map(resourceStreamId)}::text[]) order by stream_id for update`.execute(trx);
        }
        await sql`select pg_advisory_xact_lock(blackout_lock_key(${blackout.workspace}::uuid))`.execute(trx);
        const hit = await findActiveBookingsInBlackout(trx, blackout);
        await append(blackoutStreamId(blackout.workspace), [created], 'any');
        if (input.cancelExisting && hit.length > 0) await cancelHitBookings(trx, append, blackout, hit, actor, now);
        return { ...blackout, affected: affectedBookings(blackout, hit).map((b) => b.id) };
      });
    } catch (error) {
      if (!isRetryable(error) || attempt >= maxAttempts) throw error;
    }
  }
}

/** The cancellations, one append per resource stream, expecting the revision read under the row lock. */
async function cancelHitBookings(
  trx: Transaction<DB>,
  append: AppendInTransaction,
  blackout: Blackout,
  hit: readonly Booking[],
  actor: Principal,
  now: Temporal.Instant,
): Promise<void> {
  const resourceIds = [...new Set(hit.map((b) => b.bookableResourceId))].sort();
  const resources = new Map((await findResourcesByIds(trx, resourceIds)).map((r) => [r.id, r]));
  const cancellations = decideBlackoutCancellations(blackout, hit, resources, actor, now);
  const streams = resourceIds.map(resourceStreamId);
  const revisions = await trx.selectFrom('streams').select(['stream_id', 'stream_revision']).where('stream_id', 'in', streams).execute();
  const revisionOf = new Map(revisions.map((r) => [r.stream_id, Number(r.stream_revision)]));
  for (const resourceId of resourceIds) {
    const events = cancellations.filter((e) => e.data.booking.bookableResourceId === resourceId);
    const streamId = resourceStreamId(resourceId);
    await append(streamId, events, revisionOf.get(streamId) ?? 'no_stream');
  }
}
