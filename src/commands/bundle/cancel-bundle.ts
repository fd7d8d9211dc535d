import type { Principal } from '../../domain/access/principal.js';
import { decideCancelBundle } from '../../domain/bundle/decide-cancel-bundle.js';
import type { CommandContext } from '../command-context.js';
import { handleBundleChange } from './bundle-change.js';
import type { Bundle } from './create-bundle.js';

/** PATCH /bundles/{id}/cancel: every pending or confirmed booking of the bundle cancelled (a booking.cancel each). */
export function cancelBundle(ctx: CommandContext, actor: Principal, bundleId: string, reason: string | null): Promise<Bundle> {
  return handleBundleChange(ctx, bundleId, {
    loadMore: async (_db, base) => base,
    decide: (states) => decideCancelBundle(states, actor, ctx.now(), reason),
  });
}
