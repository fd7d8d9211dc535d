import type { Selectable } from 'kysely';

/** approval_reminder: booking.approval_reminder of a booking still pending (contract §24). */
export type TimerKind = 'reminder' | 'no_show' | 'complete' | 'expire_pending' | 'approval_reminder';

export type TimersTable = {
  booking_id: string;
  kind: TimerKind;
  /** When the move is due; a reminder's is the booking's start, fired REMINDER_MINUTES ahead of it. */
  due_at: Date;
  /** A worker firing the timer holds it until then. */
  claimed_until: Date | null;
};

export type TimerRow = Selectable<TimersTable>;
