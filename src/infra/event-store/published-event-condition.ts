import { sql, type RawBuilder } from 'kysely';
import { publishedEventName } from '../../domain/booking/booking-events.js';
import { publishedWaitlistEventName } from '../../domain/waitlist/waitlist-events.js';

const carriesResource = sql<boolean>`data ? 'resource'`;
const changesIsActive = sql<boolean>`data -> 'changes' ? 'isActive'`;
const newIsActive = sql`data -> 'changes' -> 'isActive'`;

/**
 * The stored events each published name stands for, as conditions on an `events` row: the SQL
 * form of the names `toEventEnvelope` gives (tests/api/audit/events-feed.test.ts holds the two
 * together). A resource event recorded before events carried the resource is published under no
 * name; a PATCH of isActive is published as an activation or a deactivation.
 */
const conditionOf: Record<string, RawBuilder<boolean>> = {
  ...Object.fromEntries(Object.entries(publishedEventName).map(([type, name]) => [name, sql<boolean>`event_type = ${type}`])),
  'resource.register': sql<boolean>`event_type = 'ResourceRegistered'`,
  'resource.update': sql<boolean>`(event_type = 'ResourceUpdated' and ${carriesResource} and not ${changesIsActive})`,
  'resource.activate': sql<boolean>`(event_type = 'ResourceUpdated' and ${carriesResource} and ${newIsActive} = 'true'::jsonb)`,
  'resource.deactivate': sql<boolean>`(${carriesResource} and (event_type = 'ResourceDeactivated'
    or (event_type = 'ResourceUpdated' and ${changesIsActive} and ${newIsActive} <> 'true'::jsonb)))`,
  'resource.remove': sql<boolean>`(event_type = 'ResourceRemoved' and ${carriesResource})`,
  'device.delete': sql<boolean>`event_type = 'DeviceDeleted'`,
  'zone.delete': sql<boolean>`event_type = 'ZoneDeleted'`,
  'blackout.create': sql<boolean>`event_type = 'BlackoutCreated'`,
  'blackout.delete': sql<boolean>`event_type = 'BlackoutDeleted'`,
  ...Object.fromEntries(Object.entries(publishedWaitlistEventName).map(([type, name]) => [name, sql<boolean>`event_type = ${type}`])),
};

/** Every name an event is published under (contract §8, §14). */
export const publishedEventNames: readonly string[] = Object.keys(conditionOf);

/** The events published under one of `names` (each one of `publishedEventNames`). */
export function publishedUnder(names: readonly string[]): RawBuilder<boolean> {
  return sql<boolean>`(${sql.join(names.map((name) => conditionOf[name]!), sql` or `)})`;
}

/** The events of a workspace, wherever each kind keeps it: its booking, its resource, its blackout, or its own data. */
export function ofWorkspace(workspace: string): RawBuilder<boolean> {
  return sql<boolean>`coalesce(data -> 'booking' ->> 'workspace', data -> 'resource' ->> 'workspace', data -> 'blackout' ->> 'workspace', data -> 'entry' ->> 'workspace', data ->> 'workspace') = ${workspace}`;
}
