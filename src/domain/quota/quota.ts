import type { Resource } from '../resource/resource.js';

export type QuotaUnit = 'hours' | 'bookings';
export type QuotaPeriod = 'day' | 'week' | 'month';

export const quotaUnits: readonly QuotaUnit[] = ['hours', 'bookings'];
export const quotaPeriods: readonly QuotaPeriod[] = ['day', 'week', 'month'];

/** A workspace's cap on what one booker books on the matching resources in one period (contract §17). */
export type Quota = {
  id: string;
  workspace: string;
  /** Matchers: every one given must match the booked resource; none given matches every resource. */
  resourceType: Resource['resourceType'] | null;
  groupId: string | null;
  /** Registration ids. */
  resourceIds: string[] | null;
  limit: number;
  unit: QuotaUnit;
  per: QuotaPeriod;
  /** The zone whose calendar days, weeks and months the periods are. */
  timeZone: string;
  createdBy: string;
  createdAt: string;
};

/** Whether a booking on `resource` counts against the quota. */
export function quotaMatches(quota: Quota, resource: Pick<Resource, 'id' | 'resourceType' | 'groupId'>): boolean {
  return (
    (quota.resourceType === null || quota.resourceType === resource.resourceType) &&
    (quota.groupId === null || quota.groupId === resource.groupId) &&
    (quota.resourceIds === null || quota.resourceIds.includes(resource.id))
  );
}
