import { sql, type RawBuilder } from 'kysely';
import { publishedBlackoutEventName } from '../../domain/blackout/blackout-events.js';
import { publishedEventName } from '../../domain/booking/booking-events.js';
import { publishedWaitlistEventName } from '../../domain/waitlist/waitlist-events.js';

/*
 * The SQL twin of `toEventEnvelope` (domain/event-envelope.ts): the envelope's JSON text rendered
 * from an `events` row by PostgreSQL, the stored JSON spliced in as jsonb writes it, so that a page
 * of the audit feed is never parsed and written again in Node. The parsed text equals the
 * TypeScript envelope for every kind and age of event (tests/infra/event-store/envelope-text.test.ts);
 * its key order and whitespace may differ. A value that is SQL NULL leaves its member out, as
 * JSON.stringify leaves out `undefined`. Every string put into the SQL below is a constant of this
 * file or of the domain's name maps.
 */

const literal = (text: string) => {
  if (!/^[\w.]+$/.test(text)) throw new Error(`not a plain name: ${text}`);
  return `'${text}'`;
};

/** `,"key":<the value's JSON text>`; NULL when the value is. */
const member = (key: string, value: string) => `',"${literal(key).slice(1, -1)}":' || (${value})::text`;

/** The JSON text of an object of these members (each from `member`, or NULL to leave it out). */
const object = (members: string[]) => `'{' || substr(concat(${members.join(', ')}), 2) || '}'`;

const path = (...keys: string[]) => `data #> '{${keys.join(',')}}'`;

/** JavaScript's truthiness of a jsonb value: present, and not null, false, 0 or "". */
const truthy = (value: string) => `(${value} is not null and ${value} not in ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb))`;

const caseOf = (subject: string, cases: Record<string, string>, otherwise = 'null') =>
  `case ${subject} ${Object.entries(cases).map(([when, then]) => `when ${literal(when)} then ${then}`).join(' ')} else ${otherwise} end`;

const envelope = (name: string, timestamp: string, workspace: string, data: string) =>
  object([
    member('id', 'to_jsonb(event_id)'),
    member('event', `to_jsonb(${name}::text)`),
    member('timestamp', timestamp),
    member('workspace', workspace),
    member('position', 'global_position'),
    member('data', data),
  ]);

/** `upcastBooking`'s defaults: created by its booker, in no bundle, by no calendar event, one unit. */
const booking = (key: string) => path('booking', key);
const bookingMembers = [
  ...['id', 'bookableResourceId', 'resourceId', 'resourceType', 'bookerEmail', 'bookerProfileId'].map((key) => member(key, booking(key))),
  member('createdBy', `coalesce(nullif(${booking('createdBy')}, 'null'::jsonb), ${booking('bookerProfileId')})`),
  ...['startTime', 'endTime', 'status', 'title', 'workspace', 'isSeriesParent', 'recurrenceParentId'].map((key) => member(key, booking(key))),
  member('bundleId', `coalesce(${booking('bundleId')}, 'null'::jsonb)`),
  member('calendarUid', `coalesce(${booking('calendarUid')}, 'null'::jsonb)`),
  member('units', `coalesce(nullif(${booking('units')}, 'null'::jsonb), '1'::jsonb)`),
];

const ifTruthy = (key: string) => `case when ${truthy(path(key))} then ${member(key, path(key))} end`;
const extras = (...members: string[]) => `concat(${members.join(', ')})`;

/** `extrasOf` of event-envelope.ts, kind by kind. */
const bookingExtras = caseOf('event_type', {
  BookingCreated: ifTruthy('approvers'),
  BookingConfirmed: extras(member('confirmedBy', booking('confirmedBy')), member('confirmedAt', booking('confirmedAt')), ifTruthy('onBehalfOf')),
  BookingRescheduled: extras(member('previousStartTime', path('previousStartTime')), member('previousEndTime', path('previousEndTime')), member('previousUnits', path('previousUnits'))),
  BookingCancelled: extras(member('cancelledBy', booking('cancelledBy')), member('cancelledAt', booking('cancelledAt')), member('reason', booking('reason')), ifTruthy('onBehalfOf')),
  BookingCheckedIn: member('checkedInAt', booking('checkedInAt')),
  BookingCheckedOut: member('checkedOutAt', booking('checkedOutAt')),
  BookingCompleted: member('completedAt', path('at')),
  BookingMarkedNoShow: member('gracePeriodExpiredAt', path('gracePeriodExpiredAt')),
  BookingReminderIssued: member('reminderType', path('reminderType')),
  BookingApprovalReminderIssued: member('approvers', path('approvers')),
} satisfies Record<keyof typeof publishedEventName, string>);

const bookingEnvelope = envelope(
  caseOf('event_type', Object.fromEntries(Object.entries(publishedEventName).map(([type, name]) => [type, literal(name)]))),
  path('at'),
  booking('workspace'),
  object([...bookingMembers, bookingExtras]),
);

/** `resourceEventBody`: a registration's record from its fields; the others carry it (with pools' and combined rooms' defaults), or publish nothing. */
const registeredRecord = `jsonb_build_object('units', 1, 'parts', null) || (data - 'by' - 'at') || jsonb_build_object('isActive', true)
  || case when data ? 'at' then jsonb_build_object('createdAt', data -> 'at', 'updatedAt', data -> 'at') else '{}'::jsonb end`;
const carriedRecord = `data -> 'resource' || jsonb_build_object('units', coalesce(nullif(${path('resource', 'units')}, 'null'::jsonb), '1'::jsonb),
  'parts', coalesce(${path('resource', 'parts')}, 'null'::jsonb))`;
const changedName = `case when not (data -> 'changes' ? 'isActive') then 'resource.update'
  when ${truthy(path('changes', 'isActive'))} then 'resource.activate' else 'resource.deactivate' end`;
const resourceEnvelope = caseOf('event_type', {
  ResourceRegistered: envelope(`'resource.register'`, path('at'), path('workspace'), registeredRecord),
  ResourceUpdated: `case when ${truthy(path('resource'))} then ${envelope(changedName, path('at'), path('resource', 'workspace'), carriedRecord)} end`,
  ResourceDeactivated: `case when ${truthy(path('resource'))} then ${envelope(`'resource.deactivate'`, path('at'), path('resource', 'workspace'), carriedRecord)} end`,
  ResourceRemoved: `case when ${truthy(path('resource'))} then ${envelope(`'resource.remove'`, path('at'), path('resource', 'workspace'), carriedRecord)} end`,
});

/** Deletions of records, blackouts and waitlist entries publish a record the event carries whole (an entry as `answeredEntry` tells it, without `joinedAs`). */
const carried = (names: Record<string, string>, key: string, workspace: string, record = path(key)) =>
  Object.fromEntries(Object.entries(names).map(([type, name]) => [type, envelope(literal(name), path('at'), workspace, record)]));

const otherEnvelope = caseOf('event_type', {
  ...carried({ DeviceDeleted: 'device.delete', ZoneDeleted: 'zone.delete' }, 'record', path('workspace')),
  ...carried(publishedBlackoutEventName, 'blackout', path('blackout', 'workspace')),
  ...carried(publishedWaitlistEventName, 'entry', path('entry', 'workspace'), `(${path('entry')}) - 'joinedAs'`),
});

const bookingTypes = Object.keys(publishedEventName).map(literal).join(', ');
const resourceTypes = ['ResourceRegistered', 'ResourceUpdated', 'ResourceDeactivated', 'ResourceRemoved'].map(literal).join(', ');

/** The JSON text of the row's envelope (contract §8, §14); NULL for an event published under no name. */
export const envelopeText: RawBuilder<string | null> = sql.raw(
  `case when event_type in (${bookingTypes}) then ${bookingEnvelope} when event_type in (${resourceTypes}) then ${resourceEnvelope} else ${otherEnvelope} end`,
);
