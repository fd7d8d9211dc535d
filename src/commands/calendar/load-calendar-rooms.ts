import type { Principal } from '../../domain/access/principal.js';
import { canSeeWorkspace } from '../../domain/access/principal.js';
import { activeStatuses, type Booking } from '../../domain/booking/booking.js';
import { instantOf } from '../../domain/booking/booking-time.js';
import type { RoomAnswer } from '../../domain/calendar/invitation/calendar-event-events.js';
import type { Invitation } from '../../domain/calendar/invitation/parse-invitation.js';
import { instantOf as eventInstantOf } from '../../domain/calendar/invitation/event-time.js';
import { registrationIdOfAddress } from '../../domain/calendar/resource-address.js';
import { defaultSeriesTimeZone } from '../../domain/booking/series/series-pattern.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findBookedResource, findBooking } from '../../projections/booking/booking-queries.js';
import { findBookingCreateStatesOn } from '../../projections/booking/create-states-query.js';
import type { CommandContext } from '../command-context.js';
import { findApproverDelegations, quotaBoundState } from '../placement/placement-state.js';
import { loadWaiters } from '../placement/promotions.js';
import { findRescheduleState } from '../placement/reschedule-state.js';
import type { RoomCase, RoomTimes } from './calendar-room-cases.js';

/** One room the event names (an ATTENDEE whose address is a resource's, SCHEDULE-AGENT not CLIENT), first mention of a resource only. */
export type NamedRoom = { address: string; resourceId: string };

/** Why a room leaves the event, as its booking's cancel reason says. */
export type Leaving = 'removed from the event' | 'event cancelled' | 'event deleted';

/** What one write asks of the rooms: the new event (null when it is deleted), the stored one's answers and text. */
export type RoomsAsked = {
  invitation: Invitation | null;
  /** The rooms the new event names (none when it is deleted). */
  named: readonly NamedRoom[];
  /** The stored event's invitation (parsed from its source text), null for a new object. */
  previous: Invitation | null;
  previousAnswers: readonly RoomAnswer[];
  /** The title the rooms' bookings carry. */
  title: string;
};

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The rooms an event names, each resource once, in the event's order. */
export function namedRooms(invitation: Invitation | null, domain: string): NamedRoom[] {
  const seen = new Set<string>();
  return (invitation?.attendees ?? []).flatMap((attendee) => {
    if (attendee.scheduleAgent === 'CLIENT') return [];
    const resourceId = registrationIdOfAddress(attendee.address, domain);
    if (resourceId === null || seen.has(resourceId)) return [];
    seen.add(resourceId);
    return [{ address: attendee.address, resourceId }];
  });
}

/** Every resource stream a write over these rooms may append to: the rooms named now and those holding a booking of the stored event. */
export function roomStreamIds(named: readonly NamedRoom[], previousAnswers: readonly RoomAnswer[]): string[] {
  const ids = [...named.map((room) => room.resourceId), ...previousAnswers.flatMap((answer) => (answer.bookingId && answer.resourceId ? [answer.resourceId] : []))];
  return [...new Set(ids)].map(resourceStreamId);
}

/** Contract §25: a resource principal exists for a caller who sees its workspace, while it is active. */
const isPrincipalFor = (principal: Principal, resource: Resource | null): resource is Resource =>
  resource !== null && canSeeWorkspace(principal, resource.workspace) && resource.isActive && !resource.removed;

const holds = (booking: Booking | null): booking is Booking => booking !== null && activeStatuses.includes(booking.status) && !booking.isSeriesParent;

/** The event's times on a room: floating times and days in the room's zone, as a series of §6 defaults to. */
const timesOf = (invitation: Invitation, resource: Resource): RoomTimes => ({
  start: eventInstantOf(invitation.start, defaultSeriesTimeZone(resource)),
  end: eventInstantOf(invitation.end, defaultSeriesTimeZone(resource)),
});

/** The answer of a room named only in a cancelled event: nothing asked of it, nothing booked. */
const withdrawn = (room: NamedRoom, visible: boolean): RoomAnswer =>
  visible
    ? { address: room.address, resourceId: room.resourceId, bookingId: null, partstat: 'DECLINED', scheduleStatus: '1.2', requestStatus: '2.0;Success' }
    : { address: room.address, resourceId: null, bookingId: null, partstat: 'DECLINED', scheduleStatus: '3.7', requestStatus: '3.7;Invalid calendar user' };

const sameTimes = (a: RoomTimes, b: RoomTimes) => a.start.equals(b.start) && a.end.equals(b.end);

/** What the rooms' decisions need beyond the classification: read on `db`, the state at (at least) the streams' revisions read before. */
type Pending =
  | { kind: 'ready'; room: RoomCase }
  | { kind: 'create'; address: string; resource: Resource; times: RoomTimes }
  | { kind: 'move'; address: string; previous: RoomAnswer; times: RoomTimes; booking: Booking; resource: Resource | null }
  | { kind: 'cancel'; previous: RoomAnswer; reason: Leaving; stays: boolean; booking: Booking; resource: Resource | null };

/**
 * Each room's case for this write (contract §26 "Changes"): named now and holding a booking →
 * moved when its times or title changed; named now without one → created (a room declined before
 * only when the times changed); a cancelled event's rooms and the rooms no longer named → their
 * bookings cancelled. Then the state each case decides on, as the REST command reads it.
 */
export async function loadRoomCases(ctx: CommandContext, db: Executor, actor: Principal, asked: RoomsAsked, leaving: Leaving | null): Promise<RoomCase[]> {
  const { invitation, named, previous, previousAnswers, title } = asked;
  const resourceIds = [...new Set([...named.map((r) => r.resourceId), ...previousAnswers.flatMap((a) => (a.resourceId ? [a.resourceId] : []))])];
  const resources = new Map(await Promise.all(resourceIds.map(async (id) => [id, await findBookedResource(db, id)] as const)));
  const bookingIds = previousAnswers.flatMap((a) => (a.bookingId ? [a.bookingId] : []));
  const bookings = new Map(await Promise.all(bookingIds.map(async (id) => [id, await findBooking(db, id)] as const)));
  const answerOf = (resourceId: string) => previousAnswers.find((a) => a.resourceId === resourceId) ?? null;

  const pending: Pending[] = named.flatMap((room): Pending[] => {
    const resource = resources.get(room.resourceId) ?? null;
    const answer = answerOf(room.resourceId);
    const booking = answer?.bookingId ? (bookings.get(answer.bookingId) ?? null) : null;
    if (holds(booking)) {
      const kept = { ...answer!, address: room.address };
      if (leaving === 'event cancelled') return [{ kind: 'cancel', previous: kept, reason: leaving, stays: true, booking, resource }];
      const times = resource ? timesOf(invitation!, resource) : { start: instantOf(booking.startTime), end: instantOf(booking.endTime) };
      const changed = !sameTimes(times, { start: instantOf(booking.startTime), end: instantOf(booking.endTime) }) || booking.title !== title;
      return [changed ? { kind: 'move', address: room.address, previous: kept, times, booking, resource } : { kind: 'ready', room: { kind: 'kept', answer: kept } }];
    }
    // A cancelled event's room holds nothing: whatever the client wrote of it, or the room answered before, it shows DECLINED.
    if (leaving === 'event cancelled') return [{ kind: 'ready', room: { kind: 'kept', answer: { ...(answer ?? withdrawn(room, isPrincipalFor(actor, resource))), address: room.address, bookingId: null, partstat: 'DECLINED' } } }];
    if (!isPrincipalFor(actor, resource)) return [{ kind: 'ready', room: { kind: 'unresolved', address: room.address } }];
    const times = timesOf(invitation!, resource);
    const askedBefore = answer !== null && previous !== null && sameTimes(times, timesOf(previous, resource));
    if (askedBefore) return [{ kind: 'ready', room: { kind: 'kept', answer: { ...answer, address: room.address } } }];
    return [{ kind: 'create', address: room.address, resource, times }];
  });
  const stillNamed = new Set(named.map((r) => r.resourceId));
  for (const answer of previousAnswers) {
    const booking = answer.bookingId ? (bookings.get(answer.bookingId) ?? null) : null;
    if (answer.resourceId === null || stillNamed.has(answer.resourceId) || !holds(booking)) continue;
    pending.push({ kind: 'cancel', previous: answer, reason: leaving ?? 'removed from the event', stays: false, booking, resource: resources.get(answer.resourceId) ?? null });
  }
  return withStates(ctx, db, actor, pending);
}

/** The states of the creates (one statement for all), the moves and the cancels (each with the waiters its freeing may let in). */
async function withStates(ctx: CommandContext, db: Executor, actor: Principal, pending: readonly Pending[]): Promise<RoomCase[]> {
  const creates = pending.filter((p) => p.kind === 'create');
  const reads = await findBookingCreateStatesOn(
    db,
    creates.map((c) => ({ streamId: resourceStreamId(c.resource.id), resourceId: c.resource.id, booker: actor.sub, from: c.times.start, to: c.times.end })),
  );
  let next = 0;
  return Promise.all(
    pending.map(async (p): Promise<RoomCase> => {
      switch (p.kind) {
        case 'ready':
          return p.room;
        case 'create': {
          const { streamRevision, ...read } = reads[next++]!;
          const state = quotaBoundState(read, p.times.start, await findApproverDelegations(db, read.resource, ctx.now()));
          return { kind: 'create', address: p.address, resource: p.resource, times: p.times, state };
        }
        case 'move': {
          const base = { booking: p.booking, resource: p.resource };
          const command = { startTime: p.times.start, endTime: p.times.end };
          const [state, waiters] = await Promise.all([findRescheduleState(command)(db, base), loadWaiters(ctx, db, p.resource, [p.booking])]);
          return { kind: 'move', address: p.address, previous: p.previous, times: p.times, state: { ...state, waiters } };
        }
        case 'cancel': {
          const waiters = await loadWaiters(ctx, db, p.resource, [p.booking]);
          return { kind: 'cancel', previous: p.previous, reason: p.reason, stays: p.stays, state: { booking: p.booking, resource: p.resource, waiters } };
        }
      }
    }),
  );
}
