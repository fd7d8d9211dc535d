import { isSystemAdmin, type Principal } from '../../domain/access/principal.js';
import { forbidden, recordConflict } from '../../domain/domain-error.js';
import type { RecordScope } from '../../domain/record/record-access.js';
import { recordKeyOf } from '../../domain/record/record-kind.js';
import { moveDeviceApiKey } from '../../projections/record/device-api-keys.js';
import { deviceKind } from '../../projections/record/device-kind.js';
import type { CommandContext } from '../command-context.js';
import { devices } from './device-records.js';
import { locateRecord } from '../records/locate-record.js';
import { writeRecord } from '../records/write-record.js';

/**
 * Moves a device to another workspace (LV1 only): created there first, then deleted here, so an
 * interruption between the two leaves a copy behind, never a lost device. Its API key moves to the copy
 * as the copy is created.
 */
export async function moveDevice(ctx: CommandContext, actor: Principal, scope: RecordScope, id: string, workspace: string): Promise<{ id: string }> {
  const device = await locateRecord(ctx.db, deviceKind, scope, id);
  if (!isSystemAdmin(actor)) throw forbidden('only LV1 may move a device to another workspace');
  const from = recordKeyOf(deviceKind, device);
  if (from.workspace === workspace) return { id: workspace };
  const to = { workspace, id };
  await writeRecord(
    ctx,
    devices,
    to,
    actor.sub,
    (existing) => {
      if (existing) throw recordConflict(`Device '${id}' already exists in workspace ${workspace}`);
      return { change: 'created', record: { ...device, workspace } };
    },
    { alsoWrite: (trx) => moveDeviceApiKey(trx, from, to) },
  );
  await writeRecord(ctx, devices, from, actor.sub, (current) => (current ? { change: 'deleted', record: current } : null));
  return { id: workspace };
}
