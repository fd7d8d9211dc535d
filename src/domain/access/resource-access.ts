import { forbidden } from '../domain-error.js';
import { administersGroup, isGroupAdmin, type Principal } from './principal.js';

/** LV1–LV2 manage every resource they can see; LV3 only those of its groups; LV4–LV5 none. */
export function assertCanManageResource(principal: Principal, groupId: string | null): void {
  if (administersGroup(principal, groupId)) return;
  throw forbidden(isGroupAdmin(principal) ? 'a group admin manages only resources of its own groups' : 'managing resources needs permission level LV3 or higher');
}
