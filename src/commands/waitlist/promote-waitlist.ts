import { randomUUID } from 'node:crypto';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { promoteWaiters } from '../../domain/waitlist/promote-waiters.js';
import { findBookedResource } from '../../projections/booking/booking-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { overlapMeansRetry } from '../placement/overlap-means-retry.js';
import { loadWaiters } from '../placement/promotions.js';

/**
 * Tries the resource's waiters against the resource as it is (contract §23): what the process
 * manager sends after a freeing from outside the stream (a blackout removed, more units), and the
 * timer loop for entries whose start has passed. Appends nothing when no entry moves.
 */
export async function promoteWaitlist(ctx: CommandContext, bookableResourceId: string): Promise<void> {
  await handleCommand(ctx, resourceStreamId(bookableResourceId), {
    load: async (db) => loadWaiters(ctx, db, await findBookedResource(db, bookableResourceId)),
    decide: (waiters) => promoteWaiters([], waiters, ctx.now(), randomUUID),
    onConstraintViolation: overlapMeansRetry,
  });
}
