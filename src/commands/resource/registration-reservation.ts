import {
  decideReserveRegistration,
  evolveReservation,
  registrationStreamId,
  type HolderState,
  type RegistrationEvent,
  type RegistrationKey,
  type Reservation,
} from '../../domain/resource/registration-reservation.js';
import { resourceStreamId } from '../../domain/resource/resource.js';
import { findRegistration, findResource } from '../../projections/resource/resource-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';

async function readReservation(ctx: CommandContext, key: RegistrationKey): Promise<Reservation> {
  const events = await ctx.eventStore.readStream(registrationStreamId(key));
  return events.reduce<Reservation>((current, event) => evolveReservation(current, { type: event.type, data: event.data } as RegistrationEvent), null);
}

/** The holder's resource, read once the read models have passed its stream's last event. */
async function holderState(ctx: CommandContext, resource: string): Promise<HolderState> {
  if ((await ctx.eventStore.readStreamRevision(resourceStreamId(resource))) === null) return 'absent';
  return (await findResource(ctx.db, resource)) ? 'registered' : 'removed';
}

/**
 * Takes the registration key for `resource` on its reservation stream, before the resource's own
 * stream is written: the one guard of uniqueness across streams, whatever the store.
 */
export async function reserveRegistration(ctx: CommandContext, key: RegistrationKey, resource: string): Promise<void> {
  await handleCommand(ctx, registrationStreamId(key), {
    load: async (db) => {
      const reservation = await readReservation(ctx, key);
      if (reservation) return { reservation, holder: await holderState(ctx, reservation.resource) };
      // A registration made before reservation streams existed holds its key without one.
      const registered = await findRegistration(db, key.workspace, key.resourceType, key.resourceId);
      return { reservation: registered && { resource: registered.id, at: registered.createdAt }, holder: 'registered' as const };
    },
    decide: (current) => [decideReserveRegistration(key, resource, current, ctx.now())],
  });
}

/**
 * Gives the key back when `resource` was not written after all (a failure, or an answer lost after
 * the reservation); nothing when it does not hold the key, or when its stream exists.
 */
export async function releaseRegistration(ctx: CommandContext, key: RegistrationKey, resource: string): Promise<void> {
  await handleCommand(ctx, registrationStreamId(key), {
    load: async () => {
      const reservation = await readReservation(ctx, key);
      return reservation?.resource === resource && (await holderState(ctx, resource)) === 'absent';
    },
    decide: (unwritten) => (unwritten ? [{ type: 'RegistrationReleased' as const, data: { ...key, resource, at: ctx.now().toString() } }] : []),
  });
}
