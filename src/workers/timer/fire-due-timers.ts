import { issueApprovalReminder } from '../../commands/approval/issue-approval-reminder.js';
import type { CommandContext } from '../../commands/command-context.js';
import { completeBooking, expirePendingBooking, issueReminder, markNoShow } from '../../commands/booking/system-moves.js';
import { DomainError } from '../../domain/domain-error.js';
import type { Config } from '../../infra/config.js';
import type { TimerKind, TimerRow } from '../../infra/db/tables/timers.table.js';
import { claimDueTimers } from './claim-due-timers.js';

export type TimerFiringOptions = {
  batchSize: number;
  /** How long a claimed timer is kept from other workers. */
  leaseMs: number;
  /** Pause before a timer whose move failed (not refused) is tried again. */
  retryMs: number;
};

type TimerContext = CommandContext & { config: Pick<Config, 'reminderMinutes'> };

const moves: Record<TimerKind, (ctx: TimerContext, bookingId: string) => Promise<void>> = {
  reminder: issueReminder,
  no_show: markNoShow,
  complete: completeBooking,
  expire_pending: expirePendingBooking,
  approval_reminder: issueApprovalReminder,
};

const timerKey = (timer: TimerRow) => ({ booking_id: timer.booking_id, kind: timer.kind, due_at: timer.due_at });

async function fire(ctx: TimerContext, timer: TimerRow, options: TimerFiringOptions): Promise<void> {
  try {
    await moves[timer.kind](ctx, timer.booking_id);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code === 'dependency_unavailable') {
      ctx.logger.warn({ err: error, timer: timerKey(timer) }, 'timer move failed; trying again later');
      await ctx.db
        .updateTable('timers')
        .set({ claimed_until: new Date(Date.now() + options.retryMs) })
        .where('booking_id', '=', timer.booking_id)
        .where('kind', '=', timer.kind)
        .where('due_at', '=', timer.due_at)
        .execute();
      return;
    }
    ctx.logger.info({ timer: timerKey(timer), reason: error.message }, 'timer move refused');
  }
  // A move that applied has dropped the timer in its own append; one that no longer applied leaves
  // it here. A timer planned anew meanwhile (other due time) stays.
  await ctx.db
    .deleteFrom('timers')
    .where('booking_id', '=', timer.booking_id)
    .where('kind', '=', timer.kind)
    .where('due_at', '=', timer.due_at)
    .execute();
}

/**
 * Fires the timers due at the domain's present (`ctx.now`), each through the system move it
 * stands for: the domain decides whether the move still applies, so a late or repeated firing
 * changes nothing. Answers how many timers it claimed.
 */
export async function fireDueTimers(ctx: TimerContext, options: TimerFiringOptions): Promise<number> {
  const claimed = await claimDueTimers(ctx.db, {
    now: new Date(ctx.now().epochMilliseconds),
    wallNow: new Date(),
    leaseMs: options.leaseMs,
    reminderMinutes: ctx.config.reminderMinutes,
    limit: options.batchSize,
  });
  for (const timer of claimed) await fire(ctx, timer, options);
  return claimed.length;
}
