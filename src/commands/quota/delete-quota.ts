import type { Principal } from '../../domain/access/principal.js';
import { decideDeleteQuota } from '../../domain/quota/decide-quota.js';
import { quotaStreamId } from '../../domain/quota/quota-events.js';
import { findQuota } from '../../projections/quota/quota-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

export async function deleteQuota(ctx: CommandContext, actor: Principal, id: string): Promise<void> {
  await handleCommand(ctx, quotaStreamId(id), {
    load: (db) => findQuota(db, id),
    decide: (quota) => [decideDeleteQuota(quota, actor, ctx.now())],
  });
}
