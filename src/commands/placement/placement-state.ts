import type { Temporal } from 'temporal-polyfill';
import type { ApprovalDelegation } from '../../domain/approval/approval-delegation.js';
import type { ApproverDelegations } from '../../domain/booking/decide-create-booking.js';
import type { PlacementState } from '../../domain/placement/placement-refusal.js';
import { quotaMatches } from '../../domain/quota/quota.js';
import { quotaUsagesAt } from '../../domain/quota/quota-usage.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findDelegationsOf } from '../../projections/approval/approval-delegation-queries.js';
import { findBookingCreateState, type BookingCreateState } from '../../projections/booking/booking-queries.js';
import type { FoundRegistration } from '../../projections/resource/find-registered-resource-id.js';

/** The fingerprint of the booker's usage the decision saw, when a quota applies (null: none applies). */
export type QuotaBoundState = PlacementState & ApproverDelegations & { quotaSeen: string | null };

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
