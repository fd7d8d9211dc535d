import type { CommandContext } from '../../commands/command-context.js';
import { deactivateResource } from '../../commands/resource/deactivate-resource.js';
import { deviceDeleted, zoneDeleted, type DeviceRecordEvent } from '../../domain/record/device-record-events.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import type { RecordedEvent } from '../../infra/event-store/event-store.js';
import { findRegistration } from '../../projections/resource/resource-queries.js';
import type { Processor } from '../processor.js';

export const deviceRecordDeletedReason = 'device record deleted';

const deletedKind: Record<string, ResourceType> = { [deviceDeleted]: 'device', [zoneDeleted]: 'zone' };

const logOrder = (a: RecordedEvent, b: RecordedEvent) => {
  const byTransaction = BigInt(a.transactionId) - BigInt(b.transactionId);
  return byTransaction === 0n ? a.globalPosition - b.globalPosition : byTransaction < 0n ? -1 : 1;
};

/**
 * Deactivates the bookable resource of each deleted zone or device; a repeat finds it inactive and
 * does nothing. A resource registered after the deletion (the record was created again) refers to
 * the new record and stays active.
 */
export function deviceDeletions(ctx: CommandContext): Processor {
  return {
    name: 'device-deletions',
    mode: 'at-least-once',
    async handle(event) {
      const kind = deletedKind[event.type];
      if (!kind) return;
      const { workspace, id } = event.data as DeviceRecordEvent['data'];
      if (workspace === null) return;
      const resource = await findRegistration(ctx.db, workspace, kind, String(id));
      if (!resource) return;
      const [registered] = await ctx.eventStore.readStream(resourceStreamId(resource.id), { maxCount: 1 });
      if (registered && logOrder(registered, event) > 0) return;
      await deactivateResource(ctx, resource.id, deviceRecordDeletedReason);
    },
  };
}
