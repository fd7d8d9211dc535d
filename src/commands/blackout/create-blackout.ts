import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Principal } from '../../domain/access/principal.js';
import type { BlackoutCreated } from '../../domain/blackout/blackout-events.js';
import { blackoutStreamId, type Blackout } from '../../domain/blackout/blackout.js';
import { affectedBookings, decideBlackoutCancellations } from '../../domain/blackout/decide-blackout-cancellations.js';
import { decideCreateBlackout, type CreateBlackout } from '../../domain/blackout/decide-create-blackout.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingCancelled } from '../../domain/booking/booking-events.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { lockStreamRows } from '../../infra/event-store/lock-stream-rows.js';
import { findActiveBookingsInBlackout, findResourcesByIds, findWorkspaceResourceIds } from '../../projections/blackout/blackout-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommandOnStreams } from '../handle-command.js';

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

/** The bookings the blackout hits changed between the decision's read and its lock: decide again. */
class HitBookingsChanged extends Error {
  constructor() {
    super('the bookings a blackout hits changed while it was decided');
    this.name = 'HitBookingsChanged';
  }
}

const fingerprintOf = (bookings: readonly Booking[]) => bookings.map((b) => `${b.id}@${b.updatedAt}`).join(',');

/** What the decision reads: the named resources, the bookings the blackout hits and their resources. */
type BlackoutState = { resources: Resource[]; hit: Booking[]; hitResources: Map<string, Resource> };

/**
 * Creates the blackout on the workspace stream `blackouts-<workspace>` and, with cancelExisting,
 * cancels the bookings it hits on their resources' streams, in one decision over those streams
 * (handleCommandOnStreams): their appends commit together or not at all. In the appends'
 * transaction, before them:
 * 1. lock the rows of the blackout stream and, with cancelExisting, of the covered resources (in
 *    id order, as the in-turn attempt does): every append below goes to one of them, and a booking
 *    append holds its row before it asks for the blackout lock, so taking the rows first keeps the
 *    two from waiting on each other;
 * 2. take the workspace's blackout lock exclusive (migration 0019): a booking append that got past
 *    its guard has committed, and one that has not waits, then finds this blackout and is refused;
 * 3. read the bookings it hits again, now that every one that passed the guard is visible: if they
 *    differ from those decided on, all rolls back and the decision is taken again.
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
  // Validated before any read of the bookings (the contract's order of refusals).
  const { blackout } = decideCreateBlackout(command, { resources: await findResourcesByIds(ctx.db, named) }, actor, now).data;
  const covered = async (db: Executor) => (input.cancelExisting ? (blackout.resourceIds ?? (await findWorkspaceResourceIds(db, blackout.workspace))) : []);
  let seen = '';
  const { state } = await handleCommandOnStreams<BlackoutState, BlackoutCreated | BookingCancelled>(ctx, {
    needsOneTransaction: 'blackouts need the PostgreSQL event store',
    streamIds: async (db) => [blackoutStreamId(blackout.workspace), ...(await covered(db)).map(resourceStreamId)],
    async load(db) {
      const hit = await findActiveBookingsInBlackout(db, blackout);
      const ids = [...new Set([...named, ...hit.map((b) => b.bookableResourceId)])].sort();
      const resources = await findResourcesByIds(db, ids);
      seen = fingerprintOf(hit);
      return { resources: resources.filter((r) => named.includes(r.id)), hit, hitResources: new Map(resources.map((r) => [r.id, r])) };
    },
    decide(state) {
      const created = decideCreateBlackout(command, { resources: state.resources }, actor, now);
      const cancellations = input.cancelExisting ? decideBlackoutCancellations(blackout, state.hit, state.hitResources, actor, now) : [];
      const resourceIds = [...new Set(cancellations.map((e) => e.data.booking.bookableResourceId))];
      return [
        { streamId: blackoutStreamId(blackout.workspace), events: [created] },
        ...resourceIds.map((id) => ({ streamId: resourceStreamId(id), events: cancellations.filter((e) => e.data.booking.bookableResourceId === id) })),
      ];
    },
    inTransactionFor: () => async (trx) => {
      // The rows of the in-turn attempt (handleCommandOnStreams), in the same order, before the lock.
      await lockStreamRows(trx, [blackoutStreamId(blackout.workspace), ...(await covered(trx)).map(resourceStreamId)]);
      await sql`select pg_advisory_xact_lock(blackout_lock_key(${blackout.workspace}::uuid))`.execute(trx);
      if (fingerprintOf(await findActiveBookingsInBlackout(trx, blackout)) !== seen) throw new HitBookingsChanged();
    },
    onConstraintViolation: (error) => (error instanceof HitBookingsChanged ? 'retry' : undefined),
  });
  return { ...blackout, affected: affectedBookings(blackout, state.hit).map((b) => b.id) };
}
