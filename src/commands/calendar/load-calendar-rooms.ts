import type { Principal } from '../../domain/access/principal.js';
import { canSeeWorkspace } from '../../domain/access/principal.js';
import { activeStatuses, type Booking } from '../../domain/booking/booking.js';
import { instantOf } from '../../domain/booking/booking-time.js';
import type { RoomAnswer } from '../../domain/calendar/invitation/calendar-event-events.js';
import type { Invitation } from '../../domain/calendar/invitation/parse-invitation.js';
import { invitedOccurrences, roomSeriesCommand } from '../../domain/calendar/invitation/decide-room-series.js';
import { roomSeriesOf, type RoomSeries } from '../../domain/calendar/invitation/room-series.js';
import { seriesSlots } from '../../domain/booking/series/decide-create-series.js';
import { instantOf as eventInstantOf } from '../../domain/calendar/invitation/event-time.js';
import { registrationIdOfAddress } from '../../domain/calendar/resource-address.js';
import { defaultSeriesTimeZone } from '../../domain/booking/series/series-pattern.js';
import { resourceStreamId, type Resource } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findBookedResource, findBooking } from '../../projections/booking/booking-queries.js';
import { findBookingCreateStatesOn } from '../../projections/booking/create-states-query.js';
import type { CommandContext } from '../command-context.js';
import { findApproverDelegations, quotaBoundState } from '../placement/placement-state.js';
import { loadCreateSeriesState } from '../placement/load-create-series-state.js';
import { loadSeries, type LoadedSeries } from '../placement/load-series.js';
import { loadWaiters } from '../placement/promotions.js';
import { findRescheduleState } from '../placement/reschedule-state.js';
import type { RoomCase, RoomTimes } from './calendar-room-cases.js';

/** One room the event names (an ATTENDEE whose address is a resource's, SCHEDULE-AGENT not CLIENT), first mention of a resource only. */
export type NamedRoom = { address: string; resourceId: string };

/** Why a room leaves the event, as its booking's cancel reason says. */
export type Leaving = 'removed from the event' | 'event cancelled' | 'event deleted';

/** Why a room's bookings are cancelled while the room stays: the event's new times are asked of it afresh (a series, or a series no more). */
const replacedReason = 'event changed';

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

/** The series a room is asked for by an event (null: the event does not recur), its floating times and days read in the room's zone. */
const seriesOf = (invitation: Invitation | null, address: string, resource: Resource): RoomSeries | null =>
  invitation ? roomSeriesOf(invitation, address, defaultSeriesTimeZone(resource)) : null;

const sameSeries = (a: RoomSeries | null, b: RoomSeries | null) => a !== null && b !== null && JSON.stringify(a) === JSON.stringify(b);

/** The ids of a held series' bookings that a new decision on the room leaves out of its state: they are cancelled in the same append. */
const idsOfSeries = (series: LoadedSeries) => [series.parent!.id, ...series.upcoming.map((b) => b.id)];

/** What the rooms' decisions need beyond the classification: read on `db`, the state at (at least) the streams' revisions read before. */
type Pending =
  | { kind: 'ready'; room: RoomCase }
  | { kind: 'create'; address: string; resource: Resource; times: RoomTimes; replaced: readonly string[] }
  | { kind: 'series'; address: string; resource: Resource; series: RoomSeries; replaced: readonly string[] }
  | { kind: 'move'; address: string; previous: RoomAnswer; times: RoomTimes; booking: Booking; resource: Resource | null }
  | { kind: 'cancel'; previous: RoomAnswer; reason: string; stays: boolean; booking: Booking; resource: Resource | null; promotes: boolean }
  | { kind: 'cancel-series'; previous: RoomAnswer; reason: string; stays: boolean; series: LoadedSeries; resource: Resource | null; promotes: boolean };

/**
 * Each room's case for this write (contract §26 "Changes"): named now and holding a booking →
 * moved when its times or title changed; holding a series → kept while the room's series and title
 * are the same, else cancelled and asked afresh (as is a booking the event now repeats); named now
 * without one → created, or a series for a recurring event (a room declined before only when the
 * times changed); a cancelled event's rooms and the rooms no longer named → their bookings
 * cancelled. Then the state each case decides on, as the REST command reads it.
 */
export async function loadRoomCases(ctx: CommandContext, db: Executor, actor: Principal, asked: RoomsAsked, leaving: Leaving | null): Promise<RoomCase[]> {
  const { invitation, named, previous, previousAnswers, title } = asked;
  const now = ctx.now();
  const resourceIds = [...new Set([...named.map((r) => r.resourceId), ...previousAnswers.flatMap((a) => (a.resourceId ? [a.resourceId] : []))])];
  const resources = new Map(await Promise.all(resourceIds.map(async (id) => [id, await findBookedResource(db, id)] as const)));
  const bookingIds = previousAnswers.flatMap((a) => (a.bookingId ? [a.bookingId] : []));
  const bookings = new Map(await Promise.all(bookingIds.map(async (id) => [id, await findBooking(db, id)] as const)));
  const parents = [...bookings.values()].filter((b): b is Booking => b !== null && b.isSeriesParent && activeStatuses.includes(b.status));
  const seriesHeld = new Map(await Promise.all(parents.map(async (parent) => [parent.id, await loadSeries(db, parent.id, now)] as const)));
  const answerOf = (resourceId: string) => previousAnswers.find((a) => a.resourceId === resourceId) ?? null;

  const pending: Pending[] = named.flatMap((room): Pending[] => {
    const resource = resources.get(room.resourceId) ?? null;
    const answer = answerOf(room.resourceId);
    const booking = answer?.bookingId ? (bookings.get(answer.bookingId) ?? null) : null;
    const held = answer?.bookingId ? (seriesHeld.get(answer.bookingId) ?? null) : null;
    const kept = answer && { ...answer, address: room.address };
    if (leaving === 'event cancelled') {
      if (holds(booking)) return [{ kind: 'cancel', previous: kept!, reason: leaving, stays: true, booking, resource, promotes: true }];
      if (held) return [{ kind: 'cancel-series', previous: kept!, reason: leaving, stays: true, series: held, resource, promotes: true }];
      // A cancelled event's room holds nothing: whatever the client wrote of it, or the room answered before, it shows DECLINED.
      return [{ kind: 'ready', room: { kind: 'kept', answer: { ...(kept ?? withdrawn(room, isPrincipalFor(actor, resource))), bookingId: null, partstat: 'DECLINED', declined: undefined } } }];
    }
    const series = resource && seriesOf(invitation, room.address, resource);
    if (held && series && sameSeries(series, seriesOf(previous, room.address, resource!)) && held.parent!.title === title) return [{ kind: 'ready', room: { kind: 'kept', answer: kept! } }];
    if (!series && holds(booking)) {
      const times = resource ? timesOf(invitation!, resource) : { start: instantOf(booking.startTime), end: instantOf(booking.endTime) };
      const changed = !sameTimes(times, { start: instantOf(booking.startTime), end: instantOf(booking.endTime) }) || booking.title !== title;
      return [changed ? { kind: 'move', address: room.address, previous: kept!, times, booking, resource } : { kind: 'ready', room: { kind: 'kept', answer: kept! } }];
    }
    // What the room held is cancelled in the same append, and left out of the state the new ask is decided on.
    const replacing: Pending[] = [];
    if (held) replacing.push({ kind: 'cancel-series', previous: kept!, reason: replacedReason, stays: false, series: held, resource, promotes: false });
    else if (holds(booking)) replacing.push({ kind: 'cancel', previous: kept!, reason: replacedReason, stays: false, booking, resource, promotes: false });
    const replaced = held ? idsOfSeries(held) : holds(booking) ? [booking.id] : [];
    if (!isPrincipalFor(actor, resource)) return [...replacing, { kind: 'ready', room: { kind: 'unresolved', address: room.address } }];
    if (series) {
      const askedBefore = replaced.length === 0 && answer !== null && sameSeries(series, seriesOf(previous, room.address, resource));
      return askedBefore ? [{ kind: 'ready', room: { kind: 'kept', answer: kept! } }] : [...replacing, { kind: 'series', address: room.address, resource, series, replaced }];
    }
    const times = timesOf(invitation!, resource);
    const askedBefore = replaced.length === 0 && answer !== null && previous !== null && previous.recurrence === null && sameTimes(times, timesOf(previous, resource));
    if (askedBefore) return [{ kind: 'ready', room: { kind: 'kept', answer: kept! } }];
    return [...replacing, { kind: 'create', address: room.address, resource, times, replaced }];
  });
  const stillNamed = new Set(named.map((r) => r.resourceId));
  // The rooms leaving the event come first: what they free (the organizer's quotas) is free for the rooms it names.
  const leavingRooms: Pending[] = [];
  for (const answer of previousAnswers) {
    if (answer.resourceId === null || stillNamed.has(answer.resourceId) || !answer.bookingId) continue;
    const booking = bookings.get(answer.bookingId) ?? null;
    const held = seriesHeld.get(answer.bookingId) ?? null;
    const resource = resources.get(answer.resourceId) ?? null;
    const reason = leaving ?? 'removed from the event';
    if (holds(booking)) leavingRooms.push({ kind: 'cancel', previous: answer, reason, stays: false, booking, resource, promotes: true });
    else if (held) leavingRooms.push({ kind: 'cancel-series', previous: answer, reason, stays: false, series: held, resource, promotes: true });
  }
  return withStates(ctx, db, actor, [...leavingRooms, ...pending], { uid: invitation?.uid ?? '', title });
}

/** A state without the bookings the same write cancels: they neither stand in the way nor count for the booker. */
function without<State extends { overlapping: readonly { id: string }[]; activeBookingsOfBooker: number }>(state: State, replaced: readonly string[]): State {
  if (replaced.length === 0) return state;
  const ids = new Set(replaced);
  const overlapping = state.overlapping.filter((b) => !ids.has(b.id));
  return { ...state, overlapping, activeBookingsOfBooker: Math.max(0, state.activeBookingsOfBooker - replaced.length) };
}

/** The states of the creates (one statement for all), the series, the moves and the cancels (each with the waiters its freeing may let in). */
async function withStates(ctx: CommandContext, db: Executor, actor: Principal, pending: readonly Pending[], event: { uid: string; title: string }): Promise<RoomCase[]> {
  const now = ctx.now();
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
          const state = quotaBoundState(without(read, p.replaced), p.times.start, await findApproverDelegations(db, read.resource, now));
          return { kind: 'create', address: p.address, resource: p.resource, times: p.times, state };
        }
        case 'series': {
          const command = roomSeriesCommand(p.series, { parentId: '', newId: () => '', title: event.title, calendarUid: event.uid });
          const options = { occurrencesOf: invitedOccurrences(p.series) };
          const state = await loadCreateSeriesState(db, p.resource.id, actor, command, now, options);
          const starts = seriesSlots(command, p.resource, actor, now, options).map((slot) => slot.start);
          return { kind: 'series', address: p.address, resource: p.resource, series: p.series, state: without(state, p.replaced), starts };
        }
        case 'move': {
          const base = { booking: p.booking, resource: p.resource };
          const command = { startTime: p.times.start, endTime: p.times.end };
          const [state, waiters] = await Promise.all([findRescheduleState(command)(db, base), loadWaiters(ctx, db, p.resource, [p.booking])]);
          return { kind: 'move', address: p.address, previous: p.previous, times: p.times, state: { ...state, waiters } };
        }
        case 'cancel': {
          const waiters = p.promotes ? await loadWaiters(ctx, db, p.resource, [p.booking]) : [];
          return { kind: 'cancel', previous: p.previous, reason: p.reason, stays: p.stays, state: { booking: p.booking, resource: p.resource, waiters } };
        }
        case 'cancel-series': {
          const waiters = p.promotes ? await loadWaiters(ctx, db, p.resource, p.series.upcoming) : [];
          return { kind: 'cancel-series', previous: p.previous, reason: p.reason, stays: p.stays, state: { ...p.series, resource: p.resource ?? p.series.resource, waiters } };
        }
      }
    }),
  );
}
