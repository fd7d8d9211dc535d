import type { Principal } from '../../domain/access/principal.js';
import { parseClientInstant } from '../../domain/booking/booking-time.js';
import type { RescheduleBooking } from '../../domain/booking/decide-reschedule-booking.js';
import { decideMoveBundle } from '../../domain/bundle/decide-move-bundle.js';
import { findRescheduleState, rescheduleQuotaHold } from '../placement/reschedule-state.js';
import { quotaOrOverlapMeansRetry } from '../placement/quota-hold.js';
import type { CommandContext } from '../command-context.js';
import { handleBundleChange } from './bundle-change.js';
import type { Bundle } from './create-bundle.js';

export type MoveBundleInput = { startTime: string; endTime: string; title?: string };

/** PATCH /bundles/{id}: every pending or confirmed booking of the bundle to the new times, each as its reschedule would be; all or nothing. */
export function moveBundle(ctx: CommandContext, actor: Principal, bundleId: string, input: MoveBundleInput): Promise<Bundle> {
  const command: RescheduleBooking = {
    startTime: parseClientInstant(input.startTime, '/body/startTime'),
    endTime: parseClientInstant(input.endTime, '/body/endTime'),
    title: input.title,
  };
  return handleBundleChange(ctx, bundleId, {
    loadMore: findRescheduleState(command),
    decide: (states) => decideMoveBundle(command, states, actor, ctx.now()),
    inTransactionFor: rescheduleQuotaHold(command),
    onConstraintViolation: quotaOrOverlapMeansRetry,
  });
}
