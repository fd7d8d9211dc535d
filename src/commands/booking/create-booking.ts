import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { bookingWorkspace } from '../../domain/booking/booking-workspace.js';
import { decideCreateBooking, type CreateBooking, type CreateBookingState } from '../../domain/booking/decide-create-booking.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import { findBookingCreateState } from '../../projections/bookings/booking-queries.js';
import { findRegisteredResourceId, type FoundRegistration } from '../../projections/resources/find-registered-resource-id.js';
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
  /** LV1 only: book in this workspace instead of the token's. */
  workspace?: string;
};

const unregistered: CreateBookingState = { resource: null, overlapping: [], activeBookingsOfBooker: 0, blackouts: [] };

/**
 * Books on the registration's stream. Without a registration the decider refuses in its own order
 * (400 times, 403 level, 404 resource). Null only when a remembered registration's resource is gone.
 */
async function book(ctx: CommandContext, actor: Principal, command: CreateBooking, found: FoundRegistration | null): Promise<Booking | null> {
  if (!found) return decideCreateBooking(command, unregistered, actor, ctx.now()).data.booking;
  const streamId = resourceStreamId(found.id);
  const { events } = await handleCommand(ctx, streamId, {
    // Only what the decision needs (the resource, the active bookings in the way, the booker's
    // count), read with the stream's revision in one round trip.
    loadWithRevision: async (db) => {
      const { streamRevision, ...state } = await findBookingCreateState(db, streamId, found.id, actor.sub, command.startTime, command.endTime);
      return { revision: streamRevision, state };
    },
    decide: (state) => (found.remembered && !state.resource ? [] : [decideCreateBooking(command, state, actor, ctx.now())]),
    onConstraintViolation: overlapMeansRetry,
  });
  return events[0]?.data.booking ?? null;
}

/** Books the registered (workspace, resourceType, resourceId) on that resource's stream; the workspace is the token's unless LV1 names one. */
export async function createBooking(ctx: CommandContext, actor: Principal, input: CreateBookingInput): Promise<Booking> {
  const command: CreateBooking = {
    id: randomUUID(),
    title: input.title,
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    bookerEmail: input.bookerEmail,
  };
  const key = { workspace: bookingWorkspace(actor, input.workspace), resourceType: input.resourceType, resourceId: input.resourceId };
  const booked = await book(ctx, actor, command, await findRegisteredResourceId(ctx.db, key));
  // A remembered registration whose resource has been removed since: the table may hold a newer one.
  return booked ?? (await book(ctx, actor, command, await findRegisteredResourceId(ctx.db, key, { fresh: true })))!;
}
