import type { Principal } from '../../domain/access/principal.js';
import { decideResourceRemovalCancellations } from '../../domain/booking/decide-resource-removal-cancellations.js';
import { decideRemove } from '../../domain/resource/decide-resource.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { findUpcomingActiveBookings } from '../../projections/booking/booking-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { loadVisibleResource } from './load-visible-resource.js';

/** Removes the resource and, in the same append, cancels its bookings that have not started. */
export async function removeResource(ctx: CommandContext, actor: Principal, id: string): Promise<void> {
  await handleCommand(ctx, resourceStreamId(id), {
    load: async (db) => {
      const resource = await loadVisibleResource(db, actor, id);
      return { resource, upcoming: await findUpcomingActiveBookings(db, id, ctx.now()) };
    },
    decide: ({ resource, upcoming }) => {
      const now = ctx.now();
      return [decideRemove(resource, actor, now), ...decideResourceRemovalCancellations(upcoming, actor, now)];
    },
  });
}
