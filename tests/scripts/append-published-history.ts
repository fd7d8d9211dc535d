import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { Principal } from '../../src/domain/access/principal.js';
import { decideRegister, decideUpdate } from '../../src/domain/resource/decide-resource.js';
import { evolveResource } from '../../src/domain/resource/evolve-resource.js';
import type { EventStore, RecordedEvent } from '../../src/infra/event-store/event-store.js';
import { zoneRecord } from '../support/record-samples.js';
import { bookingCreated, sampleBooking } from '../workers/booking-event-fixture.js';

const admin = { sub: 'admin-1', level: 1, workspace: null } as unknown as Principal;

/**
 * A small history with every family of published event, on two zones: a registration and an update,
 * bookings, a zone deletion, and an unpublished record change. Answers every appended event in order.
 */
export async function appendPublishedHistory(eventStore: EventStore, workspace: string): Promise<RecordedEvent[]> {
  const appended: RecordedEvent[] = [];
  const append = async (stream: string, events: { type: string; data: Record<string, unknown> }[]) => {
    appended.push(...(await eventStore.appendToStream(stream, events, 'any')).events);
  };
  const now = Temporal.Instant.from('2030-01-01T08:00:00Z');
  for (const zone of ['zone-a', 'zone-b']) {
    const registered = decideRegister({ id: randomUUID(), workspace, resourceType: 'zone', resourceId: zone, resourceName: zone }, null, admin, now);
    const stream = `resource-${registered.data.id}`;
    const updated = decideUpdate({ capacity: 6 }, evolveResource(null, registered)!, admin, now.add({ minutes: 1 }));
    await append(stream, [registered, updated]);
    for (const title of ['first', 'second']) {
      const booking = sampleBooking({ bookableResourceId: registered.data.id, resourceId: zone, workspace, title });
      await append(stream, [bookingCreated(booking)]);
    }
  }
  const zone = zoneRecord(workspace, 'zone-c', 'Gone');
  await append(`zone-${workspace}-zone-c`, [
    { type: 'ZoneUpdated', data: { workspace, id: 'zone-c', record: zone, by: 'admin-1', at: now.toString() } },
    { type: 'ZoneDeleted', data: { workspace, id: 'zone-c', record: zone, by: 'admin-1', at: now.toString() } },
  ]);
  return appended;
}
