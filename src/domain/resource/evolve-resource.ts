import { defaultBookingPolicy, type Resource } from './resource.js';
import type { ResourceEvent } from './resource-events.js';

export function evolveResource(state: Resource | null, event: ResourceEvent): Resource | null {
  switch (event.type) {
    case 'ResourceRegistered': {
      const { by: _by, at, ...fields } = event.data;
      // A policy recorded before a field existed (buffers) has that field's default; a resource registered before pools has one unit, before combined rooms no parts.
      return { units: 1, parts: null, ...fields, bookingPolicy: { ...defaultBookingPolicy, ...fields.bookingPolicy }, isActive: true, removed: false, createdAt: at, updatedAt: at };
    }
    case 'ResourceUpdated':
      if (!state) return state;
      if (!event.data.changes.bookingPolicy) return { ...state, ...event.data.changes, updatedAt: event.data.at };
      return { ...state, ...event.data.changes, bookingPolicy: { ...defaultBookingPolicy, ...event.data.changes.bookingPolicy }, updatedAt: event.data.at };
    case 'ResourceDeactivated':
      return state && { ...state, isActive: false, updatedAt: event.data.at };
    case 'ResourceRemoved':
      return state && { ...state, removed: true, updatedAt: event.data.at };
    default:
      return event satisfies never;
  }
}
