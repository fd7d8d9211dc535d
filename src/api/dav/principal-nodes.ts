import { canSeeWorkspace } from '../../domain/access/principal.js';
import { notFound } from '../../domain/domain-error.js';
import { findResourcePrincipal, listResourcePrincipals, type ResourcePrincipal } from '../../projections/calendar/resource-principals.js';
import type { DavCaller } from './dav-caller.js';
import { collection, common, maxListed, tooMany, userOwner, type DavNode } from './dav-node.js';
import { calendarHref, homeHref, principalHref, type DavOwner } from './dav-paths.js';
import { hrefs, property, propertiesOf } from './dav-property.js';
import { element } from './multistatus.js';
import { caldav, dav, workspaceBooking } from './xml-names.js';

export function userPrincipal(caller: DavCaller): DavNode {
  const owner = userOwner(caller);
  const { email, sub } = caller.principal;
  return {
    href: principalHref(owner),
    properties: propertiesOf(
      ...common(caller),
      property(dav, 'resourcetype', () => [collection(), element(dav, 'principal')]),
      property(dav, 'displayname', () => [email ?? sub]),
      property(dav, 'principal-URL', () => hrefs(principalHref(owner))),
      property(caldav, 'calendar-home-set', () => hrefs(homeHref(owner))),
      property(caldav, 'schedule-inbox-URL', () => hrefs(calendarHref(owner, 'inbox'))),
      property(caldav, 'schedule-outbox-URL', () => hrefs(calendarHref(owner, 'outbox'))),
      property(caldav, 'calendar-user-address-set', () => hrefs(...(email ? [`mailto:${email}`] : []), principalHref(owner))),
      property(caldav, 'calendar-user-type', () => ['INDIVIDUAL']),
    ),
  };
}

/** The addresses a resource answers to (contract §25). */
export const resourceAddresses = (resource: ResourcePrincipal, domain: string) => [`mailto:${resource.id}@${domain}`, `urn:uuid:${resource.id}`];

/** ROOM for a zone, RESOURCE for a device (RFC 5545 CUTYPE). */
export const calendarUserTypeOf = (resource: ResourcePrincipal) => (resource.resourceType === 'zone' ? 'ROOM' : 'RESOURCE');

export function resourcePrincipal(caller: DavCaller, resource: ResourcePrincipal): DavNode {
  const owner: DavOwner = { kind: 'resource', resourceId: resource.id };
  return {
    href: principalHref(owner),
    properties: propertiesOf(
      ...common(caller, ['read', 'read-free-busy']),
      property(dav, 'resourcetype', () => [collection(), element(dav, 'principal')]),
      property(dav, 'displayname', () => [resource.name]),
      property(dav, 'principal-URL', () => hrefs(principalHref(owner))),
      property(caldav, 'calendar-user-type', () => [calendarUserTypeOf(resource)]),
      property(caldav, 'calendar-user-address-set', () => hrefs(...resourceAddresses(resource, caller.addressDomain))),
      property(caldav, 'calendar-home-set', () => hrefs(homeHref(owner))),
      property(workspaceBooking, 'units', () => [String(resource.units)]),
      property(workspaceBooking, 'capacity', () => (resource.capacity === null ? [] : [String(resource.capacity)])),
    ),
  };
}

/** The resources the caller sees (§2: its workspace; LV1 without one: all), 507 beyond maxListed. */
export async function visibleResources(caller: DavCaller): Promise<ResourcePrincipal[]> {
  const { principal } = caller;
  const workspace = principal.level === 1 && principal.workspace === null ? null : principal.workspace;
  if (workspace === null && principal.level !== 1) return [];
  const resources = await listResourcePrincipals(caller.db, workspace, maxListed + 1);
  if (resources.length > maxListed) throw tooMany('resources');
  return resources;
}

export async function visibleResource(caller: DavCaller, id: string): Promise<ResourcePrincipal> {
  const resource = await findResourcePrincipal(caller.db, id);
  if (!resource || !canSeeWorkspace(caller.principal, resource.workspace)) throw notFound('resource');
  return resource;
}

