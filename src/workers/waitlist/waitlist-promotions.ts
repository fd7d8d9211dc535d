import type { CommandContext } from '../../commands/command-context.js';
import { promoteWaitlist } from '../../commands/waitlist/promote-waitlist.js';
import { isBlackoutEvent } from '../../domain/blackout/blackout-events.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import type { ResourceUpdated } from '../../domain/resource/resource-events.js';
import { resourcesWithWaiters, sharingResourcesWithWaiters } from '../../projections/waitlist/waitlist-queries.js';
import type { Processor } from '../processor.js';

/** The booking events that may free occupied time (contract §23); their own resource's waiters are promoted in the same append. */
const freeingTypes = new Set(['BookingCancelled', 'BookingRescheduled', 'BookingCheckedOut', 'BookingMarkedNoShow']);

/**
 * The process manager's half of contract §23: a freeing from outside the resource's stream (a
 * blackout removed, a resource updated — more units, a looser policy, activated again, or a booking
 * freed on a resource sharing one with it through `parts`, §22: a whole's booking frees its parts,
 * a part's frees its wholes) sends a promotion to the stream of each resource with waiters. A
 * repeat finds nothing more to promote.
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
      if (freeingTypes.has(event.type)) {
        const { booking } = (event as unknown as BookingEvent).data;
        for (const id of await sharingResourcesWithWaiters(ctx.db, booking.bookableResourceId)) await promoteWaitlist(ctx, id);
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
