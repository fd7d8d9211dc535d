import { invalidRequest } from '../domain-error.js';
import type { ZoneRecord } from './device-record.js';

/**
 * A zone's parent must exist in the zone's workspace and must not be the zone itself or one of
 * its descendants. `ancestorsOfParent` is the chain from the parent up to its root (parent first),
 * null when no such parent exists.
 */
export function checkZoneParent(zoneId: string, parentZoneId: string | null, ancestorsOfParent: string[] | null): void {
  if (parentZoneId === null) return;
  if (ancestorsOfParent === null) throw invalidRequest(`parent zone '${parentZoneId}' does not exist in this workspace`, '/body/parentZoneId');
  if (ancestorsOfParent.includes(zoneId)) {
    throw invalidRequest(`zone '${zoneId}' cannot be placed under '${parentZoneId}': that would make a cycle`, '/body/parentZoneId');
  }
}

/**
 * New zones in an order that creates every parent before its children. A parent must be one of
 * the new zones or an existing one (`parentExists`); parents among the new zones must not form a cycle.
 */
export function orderParentsFirst(zones: ZoneRecord[], parentExists: (zone: ZoneRecord) => boolean): ZoneRecord[] {
  const key = (workspace: string, id: string) => `${workspace}\u0000${id}`;
  const byKey = new Map(zones.map((zone) => [key(zone.workspace, zone.id), zone]));
  const ordered: ZoneRecord[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (zone: ZoneRecord) => {
    const k = key(zone.workspace, zone.id);
    if (state.get(k) === 'done') return;
    if (state.get(k) === 'visiting') throw invalidRequest(`zones '${zone.id}' and its parents form a cycle`, '/body/bulk');
    state.set(k, 'visiting');
    const parent = zone.parentZoneId === null ? undefined : byKey.get(key(zone.workspace, zone.parentZoneId));
    if (parent) visit(parent);
    else if (zone.parentZoneId !== null && !parentExists(zone)) {
      throw invalidRequest(`parent zone '${zone.parentZoneId}' of '${zone.id}' does not exist in this workspace`, '/body/bulk');
    }
    state.set(k, 'done');
    ordered.push(zone);
  };
  zones.forEach(visit);
  return ordered;
}
