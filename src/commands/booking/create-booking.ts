import { randomUUID } from 'node:crypto';
import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { decideCreateBooking, type CreateBooking } from '../../domain/booking/decide-create-booking.js';
import { resourceStreamId, type ResourceType } from '../../domain/resource/resource.js';
import { checkUnits } from '../../domain/resource/resource-units.js';
import { findRegisteredResourceId, type FoundRegistration } from '../../projections/resource/find-registered-resource-id.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { quotaGuardOfBooking } from '../placement/quota-guard-of-booking.js';
import { quotaOrOverlapMeansRetry } from '../placement/quota-hold.js';
import { findCreateState } from '../placement/placement-state.js';

export type CreateBookingInput = {
  resourceType: ResourceType;
  resourceId: string;
  title: string;
  startTime: string;
  endTime: string;
  bookerEmail?: string;
  /** LV1–LV3: the user booked for (contract §17). */
  bookerProfileId?: string;
  /** LV1 only: book in this workspace instead of the token's. */
  workspace?: string;
  /** Units of the resource (contract §21); one when absent. */
  units?: number;
};

/**
 * Books on the registration's stream. Without a registration there is no stream: the decision
 * refuses on a state without resource, in its own order (400 times, 403 level, 404 resource).
 * Null only when a remembered registration's resource is gone.
 *
 * A quota that applies costs what a blackout costs: the booker's usage comes with the rest of the
 * state in one statement, and its hold runs inside the append's one statement (migration 0027),
 * given the fingerprint of the usage seen in the event's metadata. Where the read models follow the
 * log after the commit (EventStoreDB, PROJECTIONS=async), the hold runs in the append's transaction.
 */
async function book(ctx: CommandContext, actor: Principal, command: CreateBooking, found: FoundRegistration | null, workspace: string): Promise<Booking | null> {
  const booker = namedBookerId(command, actor);
  const holdInAppend = !ctx.eventStore.projectsAfterCommit;
  // Quotas count for the booker, who may be another user than the actor (booking on behalf).
  const quotaGuard = quotaGuardOfBooking(workspace, booker, command.startTime);
  const { events } = await handleCommand(ctx, found && resourceStreamId(found.id), {
    loadWithRevision: (db) => findCreateState(db, found, booker, command, ctx.now()),
    decide: (state) => {
      if (found?.remembered && !state.resource) return [];
      const created = decideCreateBooking(command, state, actor, ctx.now());
      return [holdInAppend && state.quotaSeen !== null ? { ...created, metadata: { quotaSeen: state.quotaSeen } } : created];
    },
    inTransactionFor: (state) => (holdInAppend ? undefined : quotaGuard(state.resource, state.quotas)),
    onConstraintViolation: quotaOrOverlapMeansRetry,
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
    bookerProfileId: input.bookerProfileId,
    units: input.units === undefined ? undefined : checkUnits(input.units, '/body/units'),
  };
  const key = { workspace: workspaceScope(actor, input.workspace, '/body/workspace'), resourceType: input.resourceType, resourceId: input.resourceId };
  const booked = await book(ctx, actor, command, await findRegisteredResourceId(ctx.db, key), key.workspace);
  // A remembered registration whose resource has been removed since: the table may hold a newer one.
  return booked ?? (await book(ctx, actor, command, await findRegisteredResourceId(ctx.db, key, { fresh: true }), key.workspace))!;
}
