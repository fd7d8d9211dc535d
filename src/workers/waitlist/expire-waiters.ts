import type { CommandContext } from '../../commands/command-context.js';
import { promoteWaitlist } from '../../commands/waitlist/promote-waitlist.js';
import { resourcesWithExpiredWaiters } from '../../projections/waitlist/waitlist-queries.js';

/**
 * Closes `expired` the waiting entries whose start has passed (contract §23: within 20 s), through
 * a promotion on each resource's stream, which decides the expiry. Answers how many resources it visited.
 */
export async function expireWaiters(ctx: CommandContext, batchSize: number): Promise<number> {
  const resources = await resourcesWithExpiredWaiters(ctx.db, new Date(ctx.now().epochMilliseconds), batchSize);
  for (const id of resources) await promoteWaitlist(ctx, id);
  return resources.length;
}
