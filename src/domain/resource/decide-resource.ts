import type { Temporal } from 'temporal-polyfill';
import { assertCanManageResource } from '../access/resource-access.js';
import type { Principal } from '../access/principal.js';
import { DomainError, invalidRequest } from '../domain-error.js';
import { validateAvailability } from './availability.js';
import { defaultBookingPolicy, mergeBookingPolicy, type Availability, type BookingPolicyPatch, type Resource, type ResourceType } from './resource.js';
import { evolveResource } from './evolve-resource.js';
import { checkUnits } from './resource-units.js';
import { noParts, partsRefusal, type PartsState } from './resource-parts.js';
import type { BookingConflict } from '../domain-error.js';
import { conflictRefusal } from '../booking/find-conflicts.js';
import type { ResourceChanges, ResourceDeactivated, ResourceRegistered, ResourceRemoved, ResourceRecord, ResourceUpdated } from './resource-events.js';

export type RegisterResource = {
  id: string;
  workspace: string;
  resourceType: ResourceType;
  resourceId: string;
  resourceName: string | null;
  capacity?: number | null;
  units?: number;
  parts?: string[] | null;
  groupId?: string | null;
  availability?: Availability | null;
  bookingPolicy?: BookingPolicyPatch;
};

export type ResourcePatch = {
  capacity?: number | null;
  units?: number;
  parts?: string[] | null;
  groupId?: string | null;
  availability?: Availability | null;
  bookingPolicy?: BookingPolicyPatch;
  isActive?: boolean;
};

/** The resource after `change`, as clients read it: the record the event carries. */
function recordAfter(state: Resource, change: { type: 'ResourceUpdated' | 'ResourceDeactivated' | 'ResourceRemoved'; data: object }): ResourceRecord {
  const { removed: _removed, ...record } = evolveResource(state, change as never)!;
  return record;
}

/** Buffers reach at most a day to either side (contract §17). */
const maxBufferMinutes = 1440;

function checkPolicy(policy: ReturnType<typeof mergeBookingPolicy>): void {
  if (policy.maxBookingsPerUser !== null && policy.maxBookingsPerUser < 1) {
    throw invalidRequest('maxBookingsPerUser must be at least 1 or null', '/bookingPolicy/maxBookingsPerUser');
  }
  for (const field of ['bufferBeforeMinutes', 'bufferAfterMinutes'] as const) {
    const minutes = policy[field];
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > maxBufferMinutes) {
      throw invalidRequest(`${field} must be a whole number of minutes from 0 to ${maxBufferMinutes}`, `/bookingPolicy/${field}`);
    }
  }
  if (!Array.isArray(policy.approvers) || !policy.approvers.every((approver) => typeof approver === 'string' && approver.length > 0)) {
    throw invalidRequest('approvers must be a list of profile ids', '/bookingPolicy/approvers');
  }
  if (!Number.isInteger(policy.schedulingConflictsAllowed) || policy.schedulingConflictsAllowed < 0) {
    throw invalidRequest('schedulingConflictsAllowed must be a whole number, 0 or more', '/bookingPolicy/schedulingConflictsAllowed');
  }
  for (const field of ['approvalDeadlineMinutes', 'approvalReminderMinutes'] as const) {
    const minutes = policy[field];
    if (minutes !== null && (!Number.isInteger(minutes) || minutes < 0)) {
      throw invalidRequest(`${field} must be a whole number of minutes, 0 or more, or null`, `/bookingPolicy/${field}`);
    }
  }
}

/** Registration; `registered` is a live registration of the same zone or device in the workspace. */
export function decideRegister(
  command: RegisterResource,
  registered: Resource | null,
  actor: Principal,
  now: Temporal.Instant,
  partsState: PartsState = noParts,
): ResourceRegistered {
  assertCanManageResource(actor, command.groupId ?? null);
  if (registered) {
    throw new DomainError('already_registered', `${command.resourceType} ${command.resourceId} is already registered in this workspace (resource ${registered.id})`);
  }
  const bookingPolicy = mergeBookingPolicy(defaultBookingPolicy, command.bookingPolicy);
  checkPolicy(bookingPolicy);
  const units = command.units === undefined ? 1 : checkUnits(command.units, '/body/units');
  const parts = command.parts ?? null;
  const partsProblem = partsRefusal({ id: command.id, workspace: command.workspace }, parts, units, partsState);
  if (partsProblem) throw partsProblem;
  return {
    type: 'ResourceRegistered',
    data: {
      id: command.id,
      workspace: command.workspace,
      resourceType: command.resourceType,
      resourceId: command.resourceId,
      resourceName: command.resourceName,
      capacity: command.capacity ?? null,
      units,
      parts,
      groupId: command.groupId ?? null,
      bookingPolicy,
      availability: command.availability ? validateAvailability(command.availability) : null,
      by: actor.sub,
      at: now.toString(),
    },
  };
}

/**
 * A PATCH. Parts or units are judged with `partsState` (contract §22, 400); parts that would make
 * pending or confirmed bookings conflict (`partsConflicts`, read by the caller) → 409, nothing changed.
 */
export function decideUpdate(patch: ResourcePatch, state: Resource, actor: Principal, now: Temporal.Instant, partsState: PartsState = noParts, partsConflicts: readonly BookingConflict[] = []): ResourceUpdated {
  assertCanManageResource(actor, state.groupId);
  if (patch.groupId !== undefined) assertCanManageResource(actor, patch.groupId);
  const changes: ResourceChanges = {};
  if (patch.capacity !== undefined) changes.capacity = patch.capacity;
  // Lowering units below what is in use cancels nothing: later creates are judged against the new value (contract §21).
  if (patch.units !== undefined) changes.units = checkUnits(patch.units, '/body/units');
  if (patch.parts !== undefined) changes.parts = patch.parts;
  if (patch.parts !== undefined || patch.units !== undefined) {
    const partsProblem = partsRefusal(state, changes.parts === undefined ? state.parts : changes.parts, changes.units ?? state.units, partsState);
    if (partsProblem) throw partsProblem;
    const refusal = conflictRefusal([...partsConflicts]);
    if (refusal) throw refusal;
  }
  if (patch.groupId !== undefined) changes.groupId = patch.groupId;
  if (patch.isActive !== undefined) changes.isActive = patch.isActive;
  if (patch.availability !== undefined) changes.availability = patch.availability && validateAvailability(patch.availability);
  if (patch.bookingPolicy !== undefined) {
    changes.bookingPolicy = mergeBookingPolicy(state.bookingPolicy, patch.bookingPolicy);
    checkPolicy(changes.bookingPolicy);
  }
  const data = { id: state.id, changes, by: actor.sub, at: now.toString() };
  return { type: 'ResourceUpdated', data: { ...data, resource: recordAfter(state, { type: 'ResourceUpdated', data }) } };
}

export function decideRemove(state: Resource, actor: Principal, now: Temporal.Instant): ResourceRemoved {
  assertCanManageResource(actor, state.groupId);
  const data = { id: state.id, by: actor.sub, at: now.toString() };
  return { type: 'ResourceRemoved', data: { ...data, resource: recordAfter(state, { type: 'ResourceRemoved', data }) } };
}

/** The device service lost the record; nothing to do when the resource is inactive already. */
export function decideDeactivate(state: Resource, reason: string, now: Temporal.Instant): ResourceDeactivated[] {
  if (!state.isActive || state.removed) return [];
  const data = { id: state.id, reason, by: 'system', at: now.toString() };
  return [{ type: 'ResourceDeactivated', data: { ...data, resource: recordAfter(state, { type: 'ResourceDeactivated', data }) } }];
}

/** The device service renamed the zone or device: the resource takes the new name, nothing when it has it already. */
export function decideRename(state: Resource, name: string, by: string, now: Temporal.Instant): ResourceUpdated[] {
  if (state.removed || state.resourceName === name) return [];
  const data = { id: state.id, changes: { resourceName: name }, by, at: now.toString() };
  return [{ type: 'ResourceUpdated', data: { ...data, resource: recordAfter(state, { type: 'ResourceUpdated', data }) } }];
}
