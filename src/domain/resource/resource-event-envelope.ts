import type { PublishedBody } from '../published-body.js';
import { resourceEventTypes, type ResourceEvent, type ResourceRecord } from './resource-events.js';

/** The published name of a resource event: a PATCH of isActive is an activation or a deactivation. */
export function resourceEventName(event: ResourceEvent): string {
  switch (event.type) {
    case 'ResourceRegistered':
      return 'resource.register';
    case 'ResourceUpdated':
      if (event.data.changes.isActive === undefined) return 'resource.update';
      return event.data.changes.isActive ? 'resource.activate' : 'resource.deactivate';
    case 'ResourceDeactivated':
      return 'resource.deactivate';
    case 'ResourceRemoved':
      return 'resource.remove';
    default:
      return event satisfies never;
  }
}

/** Every resource had one unit and no parts before pools and combined rooms (contract §21, §22): the records of older events say so. */
function recordOf(event: ResourceEvent): ResourceRecord | undefined {
  if (event.type !== 'ResourceRegistered') return event.data.resource && { ...event.data.resource, units: event.data.resource.units ?? 1, parts: event.data.resource.parts ?? null };
  const { by: _by, at, ...fields } = event.data;
  return { units: 1, parts: null, ...fields, isActive: true, createdAt: at, updatedAt: at };
}

/**
 * The published form of a resource event: data is the resource after the change. Null for any
 * other event, and for a resource event recorded before events carried the resource (the record
 * of that moment is not in the event, and a guess would not be what was true then).
 */
export function resourceEventBody(event: { type: string; data: Record<string, unknown> }): PublishedBody | null {
  if (!resourceEventTypes.has(event.type)) return null;
  const resourceEvent = event as ResourceEvent;
  const record = recordOf(resourceEvent);
  if (!record) return null;
  return { event: resourceEventName(resourceEvent), timestamp: resourceEvent.data.at, workspace: record.workspace, data: record };
}
