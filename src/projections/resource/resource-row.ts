import type { Insertable } from 'kysely';
import { defaultBookingPolicy, type Resource } from '../../domain/resource/resource.js';
import type { ResourceRow, ResourcesTable } from '../../infra/db/tables/resources.table.js';

export function rowToResource(row: ResourceRow): Resource {
  return {
    id: row.id,
    workspace: row.workspace,
    resourceType: row.resource_type,
    resourceId: row.resource_id,
    resourceName: row.resource_name,
    capacity: row.capacity,
    units: row.units,
    parts: row.parts,
    groupId: row.group_id,
    isActive: row.is_active,
    // A policy stored before a field existed (buffers) has that field's default.
    bookingPolicy: { ...defaultBookingPolicy, ...row.booking_policy },
    availability: row.availability,
    removed: row.deleted_at !== null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function resourceToRow(resource: Resource, streamRevision: number): Insertable<ResourcesTable> {
  return {
    id: resource.id,
    workspace: resource.workspace,
    resource_type: resource.resourceType,
    resource_id: resource.resourceId,
    resource_name: resource.resourceName,
    capacity: resource.capacity,
    units: resource.units,
    parts: resource.parts,
    group_id: resource.groupId,
    is_active: resource.isActive,
    booking_policy: JSON.stringify(resource.bookingPolicy),
    availability: resource.availability ? JSON.stringify(resource.availability) : null,
    deleted_at: resource.removed ? new Date(resource.updatedAt) : null,
    created_at: new Date(resource.createdAt),
    updated_at: new Date(resource.updatedAt),
    stream_revision: streamRevision,
  };
}
