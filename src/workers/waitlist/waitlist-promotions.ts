import type { CommandContext } from '../../commands/command-context.js';
import { promoteWaitlist } from '../../commands/waitlist/promote-waitlist.js';
import { isBlackoutEvent } from '../../domain/blackout/blackout-events.js';
import type { ResourceUpdated } from '../../domain/resource/resource-events.js';
import { resourcesWithWaiters } from '../../projections/waitlist/waitlist-queries.js';
import type { Processor } from '../processor.js';

/**
 * The process manager's half of contract §23: a freeing from outside the resource's stream (a
 * blackout removed, a resource updated — more units, a looser policy, activated again) sends a
 * promotion to the stream of each resource with waiters. A repeat finds nothing more to promote.
 */
export function waitlistPromotions(ctx: CommandContext): Processor {
  return {
    name: 'waitlist-promotions',
    mode: 'at-least-once',
    firstPosition: 'log-end',
    async handle(event) {
      if (isBlackoutEvent(event) && event.type === 'BlackoutDeleted') {
        const { workspace, resourceIds } = event.data.blackout;
        for (const id of await resourcesWithWaiters(ctx.db, workspace, resourceIds)) await promoteWaitlist(ctx, id);
        return;
      }
      if (event.type !== 'ResourceUpdated') return;
      const { id, resource } = (event as unknown as ResourceUpdated).data;
      // Recorded before the events carried the resource: long past any waiter.
      if (!resource) return;
      if ((await resourcesWithWaiters(ctx.db, resource.workspace, [id])).length > 0) await promoteWaitlist(ctx, id);
    },
  };
}
