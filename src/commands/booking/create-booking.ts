import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import type { BookingCreated } from '../../domain/booking/booking-events.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../domain/booking/decide-create-booking.js';
import { notFound } from '../../domain/domain-error.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { countActiveBookingsOfBooker, findResourceWithOverlapping } from '../../projections/bookings/booking-queries.js';
import { findRegistration } from '../../projections/resources/resource-queries.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { overlapMeansRetry } from './overlap-means-retry.js';

export type CreateBookingInput = {
  resourceType: ResourceType;
  resourceId: string;
  title: string;
  startTime: string;
  endTime: string;
  bookerEmail?: string;
};

/**
 * The resource uuid of each (workspace, type, zone/device id) booked lately. A uuid never changes
 * its registration; a removed one is noticed in the load, which then looks the registration up again.
 */
const registeredIds = new LRUCache<string, string>({ max: 10_000 });

/** Only what the decision needs: the resource, the active bookings in the way, the booker's count. */
async function loadCreateState(db: Executor, resourceId: string, booker: string, command: CreateBooking): Promise<CreateBookingState> {
  const { resource, overlapping } = await findResourceWithOverlapping(db, resourceId, command.startTime, command.endTime);
  const limit = resource?.bookingPolicy.maxBookingsPerUser ?? null;
  const activeBookingsOfBooker = limit === null ? 0 : await countActiveBookingsOfBooker(db, resourceId, booker, limit);
  return { resource, overlapping, activeBookingsOfBooker };
}

/** Books the registered (token's workspace, resourceType, resourceId) on that resource's stream. */
export async function createBooking(ctx: CommandContext, actor: Principal, input: CreateBookingInput): Promise<Booking> {
  const command: CreateBooking = {
    id: randomUUID(),
    title: input.title,
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    bookerEmail: input.bookerEmail,
  };
  const key = `${actor.workspace}|${input.resourceType}|${input.resourceId}`;
  for (;;) {
    const cached = registeredIds.get(key);
    const id = cached ?? (actor.workspace ? (await findRegistration(ctx.db, actor.workspace, input.resourceType, input.resourceId))?.id : undefined);
    if (!id) {
      // Refuses in the contract's order (400, 403, then 404).
      decideCreateBooking(command, { resource: null, overlapping: [], activeBookingsOfBooker: 0 }, actor, ctx.now());
      throw notFound('resource');
    }
    registeredIds.set(key, id);
    const { events } = await handleCommand(ctx, resourceStreamId(id), {
      load: (db) => loadCreateState(db, id, actor.sub, command),
      // A remembered uuid whose resource is gone: look the registration up again before refusing.
      decide: (loaded) => (cached && !loaded.resource ? [] : [decideCreateBooking(command, loaded, actor, ctx.now())]),
      onConstraintViolation: overlapMeansRetry,
    });
    const created = events[0];
    if (created) return (created.data as BookingCreated['data']).booking;
    registeredIds.delete(key);
  }
}
