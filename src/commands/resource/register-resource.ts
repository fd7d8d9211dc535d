import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import { DomainError } from '../../domain/domain-error.js';
import { decideRegister, type RegisterResource } from '../../domain/resource/decide-resource.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { DeviceDirectory } from '../../infra/device-service/device-directory.js';
import { saveZoneAncestry } from '../../infra/device-service/zone-ancestry.js';
import { findRegistration, findResource } from '../../projections/resource/resource-queries.js';
import { findPartsState } from '../../projections/resource/resource-parts-queries.js';
import { noParts } from '../../domain/resource/resource-parts.js';
import { assertCombinedRoomsStore } from './combined-rooms-store.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { releaseRegistration, reserveRegistration } from './registration-reservation.js';

export type RegisterResourceInput = Omit<RegisterResource, 'id' | 'resourceName' | 'workspace'> & { workspace?: string };

export async function registerResource(
  ctx: CommandContext & { devices: DeviceDirectory },
  actor: Principal,
  input: RegisterResourceInput,
  authorization?: string,
): Promise<Resource> {
  const workspace = workspaceScope(actor, input.workspace, '/body/workspace');
  const id = randomUUID();
  const command: RegisterResource = { ...input, id, workspace, resourceName: null };
  if (input.parts) assertCombinedRoomsStore(ctx);
  const partsState = input.parts ? await findPartsState(ctx.db, id, input.parts) : noParts;
  // Permission, duplicate and parts checks come before the device service is asked.
  decideRegister(command, await findRegistration(ctx.db, workspace, input.resourceType, input.resourceId), actor, ctx.now(), partsState);
  const record = await ctx.devices.lookup(input.resourceType, workspace, input.resourceId, authorization);
  if (!record) throw new DomainError('resource_not_found', `${input.resourceType} ${input.resourceId} does not exist in the device service`);
  // A remote device service's zone tree is remembered for the free search; the service's own is read live.
  const ancestors = input.resourceType === 'zone' ? await ctx.devices.zoneAncestors?.(workspace, input.resourceId, authorization) : undefined;

  const key = { workspace, resourceType: input.resourceType, resourceId: input.resourceId };
  try {
    await reserveRegistration(ctx, key, id);
    await handleCommand(ctx, resourceStreamId(id), {
      load: async () => null,
      decide: (registered) => [decideRegister({ ...command, resourceName: record.name }, registered, actor, ctx.now(), partsState)],
      // The reservation decided; the read model's unique index stays a second line of defence.
      onConstraintViolation: (error) =>
        error.code === '23505' && error.constraint === 'resources_registration'
          ? new DomainError('already_registered', `${input.resourceType} ${input.resourceId} is already registered in this workspace`)
          : undefined,
    });
  } catch (error) {
    await releaseRegistration(ctx, key, id).catch((releaseError: unknown) =>
      ctx.logger.warn({ err: releaseError, resource: id }, 'giving a registration back failed; it frees itself once abandoned'),
    );
    throw error;
  }
  if (ancestors) await saveZoneAncestry(ctx.db, workspace, input.resourceId, ancestors);
  return (await findResource(ctx.db, id))!;
}
