import { LRUCache } from 'lru-cache';
import type { ResourceType } from '../../domain/resource/resource.js';
import type { Executor } from '../../infra/db/database.js';
import { findRegistration } from './resource-queries.js';

/** A registration asked for by a client: its token's workspace (none: nothing is registered), type and id. */
export type RegistrationKey = { workspace: string | null; resourceType: ResourceType; resourceId: string };

/** The resource uuid, and whether it came from memory (its resource may have been removed since). */
export type FoundRegistration = { id: string; remembered: boolean };

/**
 * The resource uuid of each registration booked lately. A uuid never changes its registration, so
 * an entry stays right until its resource is removed; a caller that finds it removed asks `fresh`.
 */
const registeredIds = new LRUCache<string, string>({ max: 10_000 });

/** The uuid of the live registration, from memory when it was looked up before (unless `fresh`). */
export async function findRegisteredResourceId(db: Executor, key: RegistrationKey, options: { fresh?: boolean } = {}): Promise<FoundRegistration | null> {
  if (!key.workspace) return null;
  const text = `${key.workspace}|${key.resourceType}|${key.resourceId}`;
  const remembered = options.fresh ? undefined : registeredIds.get(text);
  if (remembered) return { id: remembered, remembered: true };
  const registration = await findRegistration(db, key.workspace, key.resourceType, key.resourceId);
  if (!registration) {
    registeredIds.delete(text);
    return null;
  }
  registeredIds.set(text, registration.id);
  return { id: registration.id, remembered: false };
}
