import { sql, type Transaction } from 'kysely';
import { storedBookingEventTypes } from '../../domain/booking/booking-archived.js';
import type { BookingArchived } from '../../domain/booking/booking-archived.js';
import { bookingIdOfEvent, type BookingEvent } from '../../domain/booking/booking-events.js';
import { defaultBookingPolicy } from '../../domain/resource/resource.js';
import type { ResourceUpdated } from '../../domain/resource/resource-events.js';
import type { DB } from '../../infra/db/schema.js';
import type { TimerKind } from '../../infra/db/tables/timers.table.js';
import { bind, executeAll, sqlTemplate, type BoundSql } from '../../infra/db/sql-template.js';
import type { EventOf } from '../../infra/event-store/event-store.js';
import type { Projector } from '../projector.js';
import { allTimerKinds, approvalReminderTimer, bookingTimers, timerKinds, type PlannedTimer } from './booking-timers.js';

/** The kinds an event plans anew; the timers of other kinds stay as they are. */
function replannedKinds(event: BookingEvent): readonly TimerKind[] {
  switch (event.type) {
    case 'BookingConfirmed':
      // The reminder planned at creation still stands, or has been sent already.
      return timerKinds.filter((kind) => kind !== 'reminder');
    case 'BookingRescheduled':
      // Same start: the reminder, sent or not, still fits; a new start needs a new one.
      return event.data.previousStartTime === event.data.booking.startTime ? timerKinds.filter((kind) => kind !== 'reminder') : timerKinds;
    case 'BookingReminderIssued':
      return ['reminder'];
    case 'BookingApprovalReminderIssued':
      return [];
    case 'BookingCreated':
    case 'BookingCancelled':
    case 'BookingCheckedIn':
    case 'BookingCheckedOut':
    case 'BookingCompleted':
    case 'BookingMarkedNoShow':
      return timerKinds;
    default:
      return event satisfies never;
  }
}

type Replan = { bookingId: string; resourceId: string; kinds: readonly TimerKind[]; kept: TimerKind[]; dueAts: string[]; plusGrace: boolean[]; minusDeadline: boolean[] };

/** The resource's approval deadline in minutes (0 without one), of `policy` (the resources row's booking_policy). */
const approvalDeadlineOf = (policy: ReturnType<typeof sql>) => sql`coalesce((${policy} ->> 'approvalDeadlineMinutes')::int, 0)`;

/**
 * Drops the replanned kinds the booking no longer needs and upserts the ones it does, in one
 * round trip: the grace period is read from the resource inside it. An unchanged timer keeps its
 * claim, since a worker may be firing it right now.
 */
const replan = sqlTemplate<Replan>((p) => [
  sql`delete from timers
    where booking_id = ${p.bookingId} and kind = any(${p.kinds}::text[]) and not (kind = any(${p.kept}::text[]))`,
  sql`insert into timers (booking_id, kind, due_at, claimed_until)
    select ${p.bookingId}, planned.kind,
           case when planned.plus_grace
             then planned.due_at + make_interval(mins => coalesce(
               (select (booking_policy ->> 'gracePeriodMinutes')::int from resources where id = ${p.resourceId}),
               ${defaultBookingPolicy.gracePeriodMinutes}))
             when planned.minus_deadline
             then planned.due_at - make_interval(mins => coalesce(
               (select ${approvalDeadlineOf(sql`booking_policy`)} from resources where id = ${p.resourceId}), 0))
             else planned.due_at end,
           null
    from unnest(${p.kept}::text[], ${p.dueAts}::timestamptz[], ${p.plusGrace}::boolean[], ${p.minusDeadline}::boolean[])
      as planned(kind, due_at, plus_grace, minus_deadline)
    on conflict (booking_id, kind) do update set due_at = excluded.due_at, claimed_until = null
    where timers.due_at <> excluded.due_at`,
]);

/** The timers one booking event deletes (null) and plans, by kind; BookingArchived deletes them all. */
function timerChangesOf(recorded: EventOf): { bookingId: string; resourceId: string; changes: [TimerKind, PlannedTimer | null][] } {
  if (recorded.type === 'BookingArchived') {
    const { booking } = recorded.data as BookingArchived['data'];
    return { bookingId: booking.id, resourceId: booking.bookableResourceId, changes: allTimerKinds.map((kind) => [kind, null]) };
  }
  const event = { type: recorded.type, data: recorded.data } as BookingEvent;
  const { booking } = event.data;
  // A reminder issued is done with: it is dropped, never planned again.
  const planned = event.type === 'BookingReminderIssued' ? [] : bookingTimers(booking);
  const changes: [TimerKind, PlannedTimer | null][] = replannedKinds(event).map((kind) => [kind, planned.find((timer) => timer.kind === kind) ?? null]);
  const approvalReminder = approvalReminderTimer(event);
  if (approvalReminder !== undefined) changes.push(['approval_reminder', approvalReminder]);
  return { bookingId: booking.id, resourceId: booking.bookableResourceId, changes };
}

/** The replanning of a booking event (BookingArchived aside), in one round trip. */
function replanOf(recorded: EventOf): BoundSql[] {
  const { bookingId, resourceId, changes } = timerChangesOf(recorded);
  const planned = changes.flatMap(([, timer]) => (timer ? [timer] : []));
  return [
    bind(replan, {
      bookingId,
      resourceId,
      kinds: changes.map(([kind]) => kind),
      kept: planned.map((t) => t.kind),
      dueAts: planned.map((t) => t.dueAt.toISOString()),
      plusGrace: planned.map((t) => t.plusGracePeriod === true),
      minusDeadline: planned.map((t) => t.minusApprovalDeadline === true),
    }),
  ];
}

/** A new grace period moves the no-show timers of the resource's bookings. */
async function moveNoShows(trx: Transaction<DB>, event: ResourceUpdated): Promise<void> {
  const grace = event.data.changes.bookingPolicy?.gracePeriodMinutes;
  if (grace === undefined) return;
  await trx
    .updateTable('timers')
    .from('bookings')
    .set({ due_at: sql`bookings.start_time + make_interval(mins => ${grace})`, claimed_until: null })
    .whereRef('timers.booking_id', '=', 'bookings.id')
    .where('timers.kind', '=', 'no_show')
    .where('bookings.bookable_resource_id', '=', event.data.id)
    .execute();
}

/** A new approval deadline moves the expiry timers of the resource's pending bookings (contract §24). */
async function moveApprovalDeadlines(trx: Transaction<DB>, event: ResourceUpdated): Promise<void> {
  const policy = event.data.changes.bookingPolicy;
  if (policy?.approvalDeadlineMinutes === undefined) return;
  await trx
    .updateTable('timers')
    .from('bookings')
    .set({ due_at: sql`bookings.start_time - make_interval(mins => ${policy.approvalDeadlineMinutes ?? 0})`, claimed_until: null })
    .whereRef('timers.booking_id', '=', 'bookings.id')
    .where('timers.kind', '=', 'expire_pending')
    .where('bookings.bookable_resource_id', '=', event.data.id)
    .execute();
}

/**
 * What a run of booking events leaves of one timer: deleted (`planned` null), or `planned`; an
 * unchanged timer keeps its claim only if every event of the run planned it at the time it had,
 * else (`fresh`) it is written anew, unclaimed, as the events one at a time would have left it.
 */
type TimerOutcome = { bookingId: string; resourceId: string; kind: TimerKind; planned: PlannedTimer | null; fresh: boolean };

const sameTimer = (a: PlannedTimer, b: PlannedTimer) =>
  a.dueAt.getTime() === b.dueAt.getTime() && a.plusGracePeriod === b.plusGracePeriod && a.minusApprovalDeadline === b.minusApprovalDeadline;

/**
 * Applies a run of booking events in two statements: what each timer ends as (TimerOutcome), each
 * one's grace period from its own resource as in `replan`. Both find their rows by the primary key
 * whatever the table's statistics say: a rebuild fills the table from empty in one transaction.
 */
async function replanAll(trx: Transaction<DB>, events: readonly EventOf[]): Promise<void> {
  const outcomes = new Map<string, TimerOutcome>();
  for (const event of events) {
    const { bookingId, resourceId, changes } = timerChangesOf(event);
    for (const [kind, planned] of changes) {
      const key = `${bookingId} ${kind}`;
      const before = outcomes.get(key);
      const fresh = before !== undefined && (before.fresh || before.planned === null || planned === null || !sameTimer(before.planned, planned));
      outcomes.set(key, { bookingId, resourceId, kind, planned, fresh });
    }
  }
  const all = [...outcomes.values()];
  const gone = all.filter((o) => o.planned === null || o.fresh);
  const planned = all.filter((o): o is TimerOutcome & { planned: PlannedTimer } => o.planned !== null);
  if (gone.length > 0) {
    // Kind by kind, so that each condition is a probe of the primary key by (booking_id, kind).
    const ofKind = allTimerKinds.map((kind) => sql`(kind = ${kind} and booking_id = any(${gone.filter((o) => o.kind === kind).map((o) => o.bookingId)}::uuid[]))`);
    await sql`delete from timers where ${sql.join(ofKind, sql` or `)}`.execute(trx);
  }
  if (planned.length === 0) return;
  await sql`insert into timers (booking_id, kind, due_at, claimed_until)
    select planned.booking_id, planned.kind,
           case when planned.plus_grace
             then planned.due_at + make_interval(mins => coalesce((resources.booking_policy ->> 'gracePeriodMinutes')::int, ${defaultBookingPolicy.gracePeriodMinutes}))
             when planned.minus_deadline
             then planned.due_at - make_interval(mins => coalesce(${approvalDeadlineOf(sql`resources.booking_policy`)}, 0))
             else planned.due_at end,
           null
    from unnest(${planned.map((o) => o.bookingId)}::uuid[], ${planned.map((o) => o.resourceId)}::uuid[], ${planned.map((o) => o.kind)}::text[],
                ${planned.map((o) => o.planned.dueAt.toISOString())}::timestamptz[], ${planned.map((o) => o.planned.plusGracePeriod === true)}::boolean[],
                ${planned.map((o) => o.planned.minusApprovalDeadline === true)}::boolean[])
      as planned(booking_id, resource_id, kind, due_at, plus_grace, minus_deadline)
      left join resources on resources.id = planned.resource_id
    on conflict (booking_id, kind) do update set due_at = excluded.due_at, claimed_until = null
    where timers.due_at <> excluded.due_at`.execute(trx);
}

/**
 * Keeps the durable timers in step with the bookings: plans, moves and drops them with each event;
 * a run of booking events in two statements (replanAll). A change of grace period moves the
 * no-show timers of the resource, a change of approval deadline its expiry timers, between the runs.
 */
export const timersProjector: Projector = {
  name: 'timers',
  tables: ['timers'],
  handles: new Set([...storedBookingEventTypes, 'ResourceUpdated']),
  setBased: true,
  async apply(trx, events) {
    let run: EventOf[] = [];
    for (const event of events) {
      if (event.type !== 'ResourceUpdated') {
        run.push(event);
        continue;
      }
      if (run.length > 0) await replanAll(trx, run);
      run = [];
      const updated = { type: 'ResourceUpdated', data: event.data } as ResourceUpdated;
      await moveNoShows(trx, updated);
      await moveApprovalDeadlines(trx, updated);
    }
    if (run.length > 0) await replanAll(trx, run);
  },
  sqlOf: (event) => (event.type === 'ResourceUpdated' || event.type === 'BookingArchived' ? undefined : replanOf(event)),
  sqlKeyOf: bookingIdOfEvent,
};
