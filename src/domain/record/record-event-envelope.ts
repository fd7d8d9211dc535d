import type { PublishedBody } from '../published-body.js';
import { deviceDeleted, zoneDeleted, type DeviceRecordEvent } from './device-record-events.js';

const publishedNames: Record<string, string> = { [deviceDeleted]: 'device.delete', [zoneDeleted]: 'zone.delete' };

/** The published form of a device or zone deletion: data is the deleted record. Null for any other event. */
export function recordEventBody(event: { type: string; data: Record<string, unknown> }): PublishedBody | null {
  const name = publishedNames[event.type];
  if (!name) return null;
  const { data } = event as DeviceRecordEvent;
  return { event: name, timestamp: data.at, workspace: data.workspace, data: data.record };
}
