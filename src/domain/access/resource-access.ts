import { forbidden } from '../domain-error.js';
import type { Principal } from './principal.js';

/** LV1–LV2 manage every resource they can see; LV3 only those of its groups; LV4–LV5 none. */
export function assertCanManageResource(principal: Principal, groupId: string | null): void {
  if (principal.level <= 2) return;
  if (principal.level === 3) {
    if (groupId !== null && principal.groups.includes(groupId)) return;
    throw forbidden('a group admin manages only resources of its own groups');
  }
  throw forbidden('managing resources needs permission level LV3 or higher');
}
