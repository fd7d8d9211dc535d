import type { CommandContext } from '../../commands/command-context.js';
import { deactivateResource } from '../../commands/resource/deactivate-resource.js';
import { renameResource } from '../../commands/device/rename-resource.js';
import type { DeviceDirectory } from '../../infra/device-service/device-directory.js';
import { saveZoneAncestry } from '../../infra/device-service/zone-ancestry.js';
import { deviceRecordDeletedReason } from './device-deletions.js';

const pageSize = 100;

/** What one reconciliation round changed. */
export type Reconciled = { deactivated: number; renamed: number };

/**
 * Checks every resource against the device service: deactivates those whose zone or device is
 * gone (catching deletions whose event was missed) and gives the others the record's current
 * name (and a remote zone its current ancestors, for the free search). When the device service cannot answer, the lookup throws and the round ends having
 * changed nothing more.
 */
export async function reconcileResources(ctx: CommandContext, devices: DeviceDirectory, authorization?: string): Promise<Reconciled> {
  const reconciled: Reconciled = { deactivated: 0, renamed: 0 };
  let after: string | undefined;
  for (;;) {
    const page = await ctx.db
      .selectFrom('resources')
      .select(['id', 'workspace', 'resource_type', 'resource_id', 'resource_name'])
      .where('deleted_at', 'is', null)
      .$if(after !== undefined, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(pageSize)
      .execute();
    for (const resource of page) {
      const record = await devices.lookup(resource.resource_type, resource.workspace, resource.resource_id, authorization);
      if (!record) {
        if (await deactivateResource(ctx, resource.id, deviceRecordDeletedReason)) reconciled.deactivated += 1;
        continue;
      }
      if (record.name !== resource.resource_name && (await renameResource(ctx, resource.id, record.name, 'system'))) reconciled.renamed += 1;
      if (resource.resource_type === 'zone' && devices.zoneAncestors) {
        const ancestors = await devices.zoneAncestors(resource.workspace, resource.resource_id, authorization);
        if (ancestors) await saveZoneAncestry(ctx.db, resource.workspace, resource.resource_id, ancestors);
      }
    }
    if (page.length < pageSize) return reconciled;
    after = page.at(-1)!.id;
  }
}
