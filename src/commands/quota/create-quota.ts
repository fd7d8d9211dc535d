import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import { decideCreateQuota, type CreateQuota } from '../../domain/quota/decide-quota.js';
import type { Quota } from '../../domain/quota/quota.js';
import { quotaStreamId } from '../../domain/quota/quota-events.js';
import type { Resource } from '../../domain/resource/resource.js';
import { findResource } from '../../projections/resource/resource-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

export type CreateQuotaInput = Omit<CreateQuota, 'id'>;

/** A quota is a stream of its own (created, then maybe deleted), projected into `quotas`. */
export async function createQuota(ctx: CommandContext, actor: Principal, input: CreateQuotaInput): Promise<Quota> {
  const command: CreateQuota = { ...input, id: randomUUID() };
  const { events } = await handleCommand(ctx, quotaStreamId(command.id), {
    load: async (db) => {
      const ids = [...new Set(command.resourceIds ?? [])];
      const found = await Promise.all(ids.map((id) => findResource(db, id)));
      return found.filter((resource): resource is Resource => resource !== null);
    },
    decide: (registered) => [decideCreateQuota(command, registered, actor, ctx.now())],
  });
  return events[0]!.data.quota;
}
