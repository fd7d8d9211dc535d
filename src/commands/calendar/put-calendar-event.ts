import { createHash, randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../domain/access/principal.js';
import { utcText } from '../../domain/booking/booking-time.js';
import type { BookingEvent } from '../../domain/booking/booking-events.js';
import {
  type CalendarEventEvent,
  type CalendarEventKey,
  type CalendarReplyDelivered,
  type RoomAnswer,
} from '../../domain/calendar/invitation/calendar-event-events.js';
import { instantOf } from '../../domain/calendar/invitation/event-time.js';
import { invalidResource } from '../../domain/calendar/invitation/invalid-calendar-object.js';
import { parseInvitation, type Invitation } from '../../domain/calendar/invitation/parse-invitation.js';
import { replyText } from '../../domain/calendar/invitation/reply-text.js';
import { storedEventText } from '../../domain/calendar/invitation/stored-event-text.js';
import type { WaitlistEvent } from '../../domain/waitlist/waitlist-events.js';
import type { Executor } from '../../infra/db/database.js';
import { findCalendarEvent, findCalendarEventAndUidHolder, type StoredCalendarEvent } from '../../projections/calendar/calendar-event-queries.js';
import type { CommandContext } from '../command-context.js';
import { calendarEventStreamId } from './calendar-event-stream.js';
import { handleCommandOnStreams, type AppendFailure, type StreamEvents } from '../handle-command.js';
import { quotaGuardOfBooking } from '../placement/quota-guard-of-booking.js';
import { quotaOrOverlapMeansRetry } from '../placement/quota-hold.js';
import { rescheduleQuotaHold } from '../placement/reschedule-state.js';
import { quotaHoldOfSeries } from '../placement/quota-guard-of-series.js';
import type { RoomCase } from './calendar-room-cases.js';
import { calendarEventRefusal, CalendarWriteRefused, type CalendarWriteConditions } from './calendar-write-refusal.js';
import { decideRooms, type RoomDecision } from './decide-calendar-rooms.js';
import { loadRoomCases, namedRooms, roomStreamIds, type Leaving, type NamedRoom } from './load-calendar-rooms.js';

/** Why a store without transactions over several streams refuses invitations: 503. */
export const invitationsNeedOneTransaction = 'invitations need EVENT_STORE=postgres: EventStoreDB has no transaction over several streams';

/** §5's longest title: the SUMMARY is cut to it. */
const maxTitleLength = 200;

/** The title of the rooms' bookings: the SUMMARY cut to §5's length (a title is never empty: "Meeting" for an event without SUMMARY). */
export const titleOf = (invitation: Invitation) => [...(invitation.summary.trim() || 'Meeting')].slice(0, maxTitleLength).join('');

export type CalendarEventEvents = BookingEvent | WaitlistEvent | CalendarEventEvent;

/** The stored event names rooms whose streams were not chosen (it changed since they were): they are chosen again. */
class RoomsMovedOn extends Error {}

/**
 * Decided again: rooms chosen before the stored event changed; the guards of the rooms' bookings;
 * and the UID taken meanwhile by another name in the same calendar (calendar_events_uid, migration
 * 0041), which the decision then refuses with CALDAV:no-uid-conflict.
 */
const retryMovedRooms = (error: AppendFailure) =>
  error instanceof RoomsMovedOn || error.constraint === 'calendar_events_uid' ? 'retry' : quotaOrOverlapMeansRetry(error);

export const sourceHashOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** The state a write of an organizer's event decides on: the stored event, who else holds its UID, each room's case. */
type EventWriteState = { stored: StoredCalendarEvent | null; uidHolder: string | null; rooms: RoomCase[] };

/** What a write of the object changes: a new text (PUT) or none (DELETE). */
export type CalendarEventWrite = { key: CalendarEventKey; conditions: CalendarWriteConditions } & (
  | { kind: 'put'; text: string; invitation: Invitation; addressDomain: string }
  | { kind: 'delete' }
);

export type CalendarEventWritten = { created: boolean; scheduleTag: string | null };

/** The quota holds of the rooms' creates and moves, each for the organizer (the booker), as the REST command holds them. */
function holdsOf(rooms: readonly RoomCase[], actor: Principal) {
  return rooms.flatMap((room) => {
    if (room.kind === 'create') return quotaGuardOfBooking(room.resource.workspace, actor.sub, room.times.start)(room.state.resource, room.state.quotas) ?? [];
    if (room.kind === 'move') return rescheduleQuotaHold({ startTime: room.times.start, endTime: room.times.end })(room.state) ?? [];
    if (room.kind === 'series') return quotaHoldOfSeries(room.state, actor.sub, room.starts) ?? [];
    return [];
  });
}

/** Whether a room's answer differs from the one stored: a REPLY tells the organizer so. */
const answerChanged = (answer: RoomAnswer, stored: StoredCalendarEvent | null) => {
  const previous = stored?.rooms.find((a) => a.address.toLowerCase() === answer.address.toLowerCase());
  return !previous || previous.partstat !== answer.partstat || previous.requestStatus !== answer.requestStatus || previous.bookingId !== answer.bookingId;
};

/** One REPLY per room whose answer changed (contract §26 "Why a room declined"), on the times that room decided on. */
function repliesOf(key: CalendarEventKey, invitation: Invitation, stored: StoredCalendarEvent | null, decisions: readonly RoomDecision[], now: Temporal.Instant): CalendarReplyDelivered[] {
  const at = utcText(now);
  const asWritten = { start: instantOf(invitation.start, 'UTC'), end: instantOf(invitation.end, 'UTC') };
  return decisions.flatMap(({ answer, times }): CalendarReplyDelivered[] => {
    if (!answer || !answerChanged(answer, stored)) return [];
    const { start, end } = times ?? asWritten;
    const { uid, sequence, summary } = invitation;
    const text = replyText({ uid, sequence, summary, organizer: invitation.organizer ?? '', attendee: answer.address, partstat: answer.partstat, requestStatus: answer.requestStatus, start, end, stamp: now });
    return [{ type: 'CalendarReplyDelivered', data: { ...key, replyId: randomUUID(), uid, attendee: answer.address, requestStatus: answer.requestStatus, text, at } }];
  });
}

/**
 * A PUT or DELETE of an organizer's event in its `bookings/` calendar (contract §26): one decision
 * over the event's stream and every room's resource stream (handleCommandOnStreams). Each room is
 * decided on its own by the REST command's verdict; the bookings' events, the stored event and
 * the REPLYs are appended together, or nothing is. The same text again changes nothing.
 */
export async function writeCalendarEvent(ctx: CommandContext, actor: Principal, write: CalendarEventWrite): Promise<CalendarEventWritten> {
  const { key } = write;
  const streamId = calendarEventStreamId(key);
  const invitation = write.kind === 'put' ? write.invitation : null;
  const sourceHash = write.kind === 'put' ? sourceHashOf(write.text) : null;
  const named: NamedRoom[] = write.kind === 'put' ? namedRooms(invitation, write.addressDomain) : [];
  const leaving: Leaving | null = write.kind === 'delete' ? 'event deleted' : invitation?.status === 'CANCELLED' ? 'event cancelled' : null;
  let chosen = new Set<string>();
  let scheduleTag: string | null = null;
  let created = false;

  const load = async (db: Executor): Promise<EventWriteState> => {
    const { stored, uidHolder } = invitation ? await findCalendarEventAndUidHolder(db, key, invitation.uid) : { stored: await findCalendarEvent(db, key), uidHolder: null };
    if (roomStreamIds(named, stored?.rooms ?? []).some((id) => !chosen.has(id))) throw new RoomsMovedOn();
    if (write.kind === 'put' && stored?.sourceHash === sourceHash) return { stored, uidHolder, rooms: [] };
    const previous = stored ? parseInvitation(stored.sourceText) : null;
    const asked = { invitation, named, previous, previousAnswers: stored?.rooms ?? [], title: invitation ? titleOf(invitation) : '' };
    return { stored, uidHolder, rooms: await loadRoomCases(ctx, db, actor, asked, leaving) };
  };

  const decide = ({ stored, uidHolder, rooms }: EventWriteState): StreamEvents<CalendarEventEvents>[] => {
    const refusal = calendarEventRefusal(write.conditions, stored, write.kind === 'put' ? { kind: 'put', uid: write.invitation.uid, uidHolder, name: key.name } : write);
    if (refusal) throw refusal;
    created = stored === null;
    if (write.kind === 'put' && stored?.sourceHash === sourceHash) {
      scheduleTag = stored.scheduleTag;
      return [];
    }
    const now = ctx.now();
    const at = utcText(now);
    const { decisions, streams } = decideRooms(rooms, { uid: invitation?.uid ?? stored!.uid, title: invitation ? titleOf(invitation) : '', actor, now, newId: randomUUID });
    if (write.kind === 'delete') {
      scheduleTag = null;
      return [...streams, { streamId, events: [{ type: 'CalendarEventRemoved', data: { ...key, uid: stored!.uid, at, by: actor.sub } }] }];
    }
    scheduleTag = randomUUID();
    const answers = decisions.flatMap((d) => (d.answer ? [d.answer] : []));
    const storedEvent: CalendarEventEvent = {
      type: 'CalendarEventStored',
      data: {
        ...key,
        uid: invitation!.uid,
        organizerEmail: emailOf(invitation!.organizer),
        sourceText: write.text,
        sourceHash: sourceHash!,
        text: storedEventText(write.text, answers),
        scheduleTag,
        rooms: answers,
        at,
        by: actor.sub,
      },
    };
    return [...streams, { streamId, events: [storedEvent, ...repliesOf(key, invitation!, stored, decisions, now)] }];
  };

  await handleCommandOnStreams<EventWriteState, CalendarEventEvents>(ctx, {
    needsOneTransaction: invitationsNeedOneTransaction,
    async streamIds(db) {
      const rooms = roomStreamIds(named, (await findCalendarEvent(db, key))?.rooms ?? []);
      chosen = new Set(rooms);
      return [streamId, ...rooms];
    },
    load,
    decide,
    inTransactionFor({ rooms }) {
      const works = holdsOf(rooms, actor);
      if (works.length === 0) return undefined;
      return async (trx) => {
        for (const work of works) await work(trx, [], async () => undefined);
      };
    },
    onConstraintViolation: retryMovedRooms,
  });
  return { created, scheduleTag };
}

/** The email of a `mailto:` address (RFC 6068), lowercased; '' for any other. */
const emailOf = (address: string | null) => /^mailto:(.+)$/i.exec(address?.trim() ?? '')?.[1]!.toLowerCase() ?? '';

/** RFC 6638 §3.2.4.1: the organizer of an event with attendees is the caller, by its address (`mailto:` its token's email). */
function organizerRefusal(invitation: Invitation, actor: Principal): CalendarWriteRefused | null {
  if (invitation.attendees.length === 0) return null;
  const email = emailOf(invitation.organizer);
  if (email !== '' && actor.email !== null && email === actor.email.toLowerCase()) return null;
  return new CalendarWriteRefused(403, 'valid-organizer', `the ORGANIZER of an event with attendees is an address of the caller (mailto:${actor.email ?? '…'})`);
}

/** PUT of an event's text: parsed first (a bad object → InvalidCalendarObject, nothing decided). */
export function putCalendarEvent(ctx: CommandContext, actor: Principal, key: CalendarEventKey, text: string, conditions: CalendarWriteConditions, addressDomain: string) {
  const invitation = parseInvitation(text);
  // A §6 series repeats a rule: occurrences by RDATE alone have none to book them as.
  if (invitation.recurrence !== null && invitation.recurrence.rrule === null) throw invalidResource('an event repeated by RDATE alone cannot be booked: give it an RRULE');
  const refusal = organizerRefusal(invitation, actor);
  if (refusal) throw refusal;
  return writeCalendarEvent(ctx, actor, { kind: 'put', key, conditions, text, invitation, addressDomain });
}

/** DELETE of the object: every booking of it cancelled, the object removed. */
export function deleteCalendarEvent(ctx: CommandContext, actor: Principal, key: CalendarEventKey, conditions: CalendarWriteConditions) {
  return writeCalendarEvent(ctx, actor, { kind: 'delete', key, conditions });
}
