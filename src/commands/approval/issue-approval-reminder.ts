import type { BookingDecisionState } from '../../domain/booking/booking-decision-state.js';
import { decideApprovalReminder } from '../../domain/approval/decide-approval-reminder.js';
import { findDelegationsOf } from '../../projections/approval/approval-delegation-queries.js';
import { derivedEventId, isDuplicateEventId } from '../derived-event-id.js';
import type { CommandContext } from '../command-context.js';
import { handleBookingMove } from '../placement/handle-booking-move.js';

/** booking.approval_reminder of a booking still pending (contract §24); issued once per booking: the event id is derived from it. */
export async function issueApprovalReminder(ctx: CommandContext, bookingId: string): Promise<void> {
  try {
    await handleBookingMove(
      ctx,
      bookingId,
      ({ booking, resource, delegations }: BookingDecisionState) =>
        decideApprovalReminder(booking, resource, delegations ?? [], ctx.now()).map((event) => ({ ...event, id: derivedEventId(`booking-approval-reminder:${event.data.booking.id}`) })),
      async (db, base) => ({ ...base, delegations: await findDelegationsOf(db, base.resource?.bookingPolicy.approvers ?? [], new Date(ctx.now().epochMilliseconds)) }),
    );
  } catch (error) {
    if (!isDuplicateEventId(error)) throw error;
  }
}
