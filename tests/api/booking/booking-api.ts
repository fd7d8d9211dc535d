import { Temporal } from 'temporal-polyfill';
import { seedZone } from '../../support/device-records.js';
import type { TestServer } from '../../support/test-server.js';

/** Registers a zone as a bookable resource (LV2 of the server's workspace); answers its uuid. */
export async function registerZone(server: TestServer, zoneId: string, extra: Record<string, unknown> = {}): Promise<string> {
  await seedZone(server.database.db, server.workspace, zoneId);
  const res = await server.request('POST', '/booking/v1/resources', { body: { resourceType: 'zone', resourceId: zoneId, ...extra } });
  if (res.status !== 201) throw new Error(`registering ${zoneId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Sets the service's clock; answers a function restoring it. */
export function setClock(server: TestServer, iso: string): void {
  const instant = Temporal.Instant.from(iso);
  server.services.now = () => instant;
}

export function bookingBody(zoneId: string, startTime: string, endTime: string, extra: Record<string, unknown> = {}) {
  return { resourceType: 'zone', resourceId: zoneId, title: 'Sync', startTime, endTime, ...extra };
}

/** An instant between two short pauses: what a read `asOf` it sees is strictly between the writes around it. */
export async function instantAfterPause(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 30));
  const instant = new Date().toISOString();
  await new Promise((resolve) => setTimeout(resolve, 30));
  return instant;
}
