import type { Resource } from './resource.js';
import type { ResourceEvent } from './resource-events.js';

export function evolveResource(state: Resource | null, event: ResourceEvent): Resource | null {
  switch (event.type) {
    case 'ResourceRegistered': {
      const { by: _by, at, ...fields } = event.data;
      return { ...fields, isActive: true, removed: false, createdAt: at, updatedAt: at };
    }
    case 'ResourceUpdated':
      return state && { ...state, ...event.data.changes, updatedAt: event.data.at };
    case 'ResourceDeactivated':
      return state && { ...state, isActive: false, updatedAt: event.data.at };
    case 'ResourceRemoved':
      return state && { ...state, removed: true, updatedAt: event.data.at };
    default:
      return event satisfies never;
  }
}
