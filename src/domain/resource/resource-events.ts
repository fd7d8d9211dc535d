import type { Availability, BookingPolicy, Resource } from './resource.js';

/**
 * The resource as `GET /booking/v1/resources/{id}` answers it after the change. The events whose
 * data does not hold the whole resource carry it, so that the published envelope is a function
 * of the event alone (a replay years later sends what was true then); evolve ignores it.
 */
export type ResourceRecord = Omit<Resource, 'removed'>;

/** The registered resource's own fields; it starts active, and its timestamps are `at`. */
export type ResourceRegistered = {
  type: 'ResourceRegistered';
  /** `units` and `parts` are absent from the events written before pools and combined rooms (contract §21, §22): one unit, no parts. */
  data: Omit<Resource, 'isActive' | 'removed' | 'createdAt' | 'updatedAt' | 'units' | 'parts'> & { units?: number; parts?: string[] | null; by: string; at: string };
};

export type ResourceChanges = Partial<{
  /** Set only from the device service's record (a rename there), never from a request. */
  resourceName: string | null;
  capacity: number | null;
  units: number;
  parts: string[] | null;
  groupId: string | null;
  availability: Availability | null;
  bookingPolicy: BookingPolicy;
  isActive: boolean;
}>;

export type ResourceUpdated = { type: 'ResourceUpdated'; data: { id: string; changes: ResourceChanges; by: string; at: string; resource: ResourceRecord } };

/** The device service no longer has the zone or device: kept, but bookable no more. */
export type ResourceDeactivated = { type: 'ResourceDeactivated'; data: { id: string; reason: string; by: string; at: string; resource: ResourceRecord } };

export type ResourceRemoved = { type: 'ResourceRemoved'; data: { id: string; by: string; at: string; resource: ResourceRecord } };

export type ResourceEvent = ResourceRegistered | ResourceUpdated | ResourceDeactivated | ResourceRemoved;

/** Every resource event kind; a kind left out does not compile. */
const resourceEventKinds = {
  ResourceRegistered: true,
  ResourceUpdated: true,
  ResourceDeactivated: true,
  ResourceRemoved: true,
} as const satisfies Record<ResourceEvent['type'], true>;

export const resourceEventTypes: ReadonlySet<string> = new Set(Object.keys(resourceEventKinds));
