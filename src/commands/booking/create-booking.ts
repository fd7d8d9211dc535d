import { randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import type { Booking } from '../../domain/booking/booking.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import { namedBookerId } from '../../domain/booking/booker.js';
import { workspaceScope } from '../../domain/access/workspace-scope.js';
import { decideCreateBooking, type ApproverDelegations, type CreateBooking, type CreateBookingState } from '../../domain/booking/decide-create-booking.js';
import { resourceStreamId, type Resource, type ResourceType } from '../../domain/resource/resource.js';
import { checkUnits } from '../../domain/resource/resource-units.js';
import { findBookingCreateState, type BookingCreateState } from '../../projections/booking/booking-queries.js';
import { findRegisteredResourceId, type FoundRegistration } from '../../projections/resource/find-registered-resource-id.js';
import type { Executor } from '../../infra/db/database.js';
import type { CommandContext } from '../command-context.js';
import { handleCommand } from '../handle-command.js';
import { quotaGuardOfBooking } from './quota-guard-of-booking.js';
import { quotaOrOverlapMeansRetry } from './quota-hold.js';
import { quotaUsagesAt } from '../../domain/quota/quota-usage.js';
import { findDelegationsOf } from '../../projections/approval/approval-delegation-queries.js';
import { quotaMatches } from '../../domain/quota/quota.js';
import type { ApprovalDelegation } from '../../domain/approval/approval-delegation.js';

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

/** The fingerprint of the booker's usage the decision saw, when a quota applies (null: none applies). */
export type QuotaBoundState = CreateBookingState & ApproverDelegations & { quotaSeen: string | null };

/** The state of a create on a resource without registration: the decision refuses it in its order. */
export const unregisteredCreateState: QuotaBoundState = { resource: null, overlapping: [], activeBookingsOfBooker: 0, quotas: [], blackouts: [], quotaSeen: null };

/**
 * Only what a create's decision needs (the resource, the active bookings in the way, the booker's
 * count and quota usage), read with the stream's revision in one round trip (and the approvers'
 * delegations of a resource that asks for approval); the state without
 * resource for an unregistered one.
 */
export async function findCreateState(
  db: Executor,
  found: FoundRegistration | null,
  booker: string,
  { startTime, endTime }: { startTime: Temporal.Instant; endTime: Temporal.Instant },
  now: Temporal.Instant,
): Promise<{ revision: number | null; state: QuotaBoundState }> {
  if (!found) return { revision: null, state: unregisteredCreateState };
  const { streamRevision, ...read } = await findBookingCreateState(db, resourceStreamId(found.id), found.id, booker, startTime, endTime);
  return { revision: streamRevision, state: quotaBoundState(read, startTime, await findApproverDelegations(db, read.resource, now)) };
}

/** A create's state from what its statement read: the quotas that apply to the resource, with the booker's usage at the start. */
export function quotaBoundState(
  { workspaceQuotas, quotaBookings, ...state }: Omit<BookingCreateState, 'streamRevision'>,
  startTime: Temporal.Instant,
  delegations: readonly ApprovalDelegation[],
): QuotaBoundState {
  const { resource } = state;
  const applying = resource && quotaBookings ? workspaceQuotas.filter((quota) => quotaMatches(quota, resource)) : [];
  const quotas = applying.length === 0 ? [] : quotaUsagesAt(applying, quotaBookings!.counted, startTime);
  return { ...state, quotas, quotaSeen: applying.length === 0 ? null : quotaBookings!.seen, delegations };
}

/** The delegations of the resource's approvers, read only when a pending booking will name their delegates (contract §24). */
export function findApproverDelegations(db: Executor, resource: Resource | null, now: Temporal.Instant): Promise<ApprovalDelegation[]> {
  const approvers = resource && !resource.bookingPolicy.autoConfirm ? resource.bookingPolicy.approvers : [];
  return findDelegationsOf(db, approvers, new Date(now.epochMilliseconds));
}

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
