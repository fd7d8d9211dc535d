import type { CommandContext } from '../../commands/command-context.js';
import { deactivateResource } from '../../commands/resource/deactivate-resource.js';
import type { DeviceDirectory } from '../../infra/device-service/device-directory.js';
import { deviceRecordDeletedReason } from './device-deletions.js';

const pageSize = 100;

/**
 * Checks every active resource against the device service and deactivates those whose zone or
 * device is gone: catches deletions whose event was missed. When the device service cannot answer,
 * the lookup throws and the round ends having changed nothing more. Answers how many it deactivated.
 */
export async function reconcileResources(ctx: CommandContext, devices: DeviceDirectory, authorization?: string): Promise<number> {
  let deactivated = 0;
  let after: string | undefined;
  for (;;) {
    const page = await ctx.db
      .selectFrom('resources')
      .select(['id', 'workspace', 'resource_type', 'resource_id'])
      .where('deleted_at', 'is', null)
      .where('is_active', '=', true)
      .$if(after !== undefined, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(pageSize)
      .execute();
    for (const resource of page) {
      const record = await devices.lookup(resource.resource_type, resource.workspace, resource.resource_id, authorization);
      if (!record && (await deactivateResource(ctx, resource.id, deviceRecordDeletedReason))) deactivated += 1;
    }
    if (page.length < pageSize) return deactivated;
    after = page.at(-1)!.id;
  }
}
