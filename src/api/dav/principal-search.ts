import type { ResourcePrincipal } from '../../projections/calendar/resource-principals.js';
import type { DavCaller } from './dav-caller.js';
import { calendarUserTypeOf, resourceAddresses, resourcePrincipal, visibleResources } from './principal-nodes.js';
import type { DavResponse } from './multistatus.js';
import { propRequestOf, propstatsOf } from './propfind.js';
import { childNamed, childrenNamed, type XmlElement } from './xml-request.js';
import { caldav, dav } from './xml-names.js';

/** One property-search of the request: the property and the text it must match. */
type Condition = { ns: string; name: string; match: string };

/** Whether a resource meets one condition (contract §25): displayname by case-insensitive substring, type and address exactly. */
function meets(resource: ResourcePrincipal, condition: Condition, addressDomain: string): boolean {
  const match = condition.match.trim().toLowerCase();
  if (condition.ns === dav && condition.name === 'displayname') return resource.name.toLowerCase().includes(match);
  if (condition.ns === caldav && condition.name === 'calendar-user-type') return calendarUserTypeOf(resource).toLowerCase() === match;
  if (condition.ns === caldav && condition.name === 'calendar-user-address-set') return resourceAddresses(resource, addressDomain).some((a) => a.toLowerCase() === match);
  return false;
}

/**
 * REPORT principal-property-search (RFC 3744 §9.4) over the resources the caller sees: every
 * condition (test="allof", the default) or any (test="anyof").
 */
export async function principalPropertySearch(caller: DavCaller, query: XmlElement): Promise<DavResponse[]> {
  const conditions: Condition[] = childrenNamed(query, dav, 'property-search').flatMap((search) =>
    (childNamed(search, dav, 'prop')?.children ?? []).map((p) => ({ ns: p.ns, name: p.name, match: childNamed(search, dav, 'match')?.text ?? '' })),
  );
  const anyOf = query.attributes.test === 'anyof';
  const found = (await visibleResources(caller)).filter((resource) => {
    const results = conditions.map((c) => meets(resource, c, caller.addressDomain));
    return conditions.length > 0 && (anyOf ? results.some(Boolean) : results.every(Boolean));
  });
  const request = propRequestOf(query);
  return Promise.all(
    found.map(async (resource) => {
      const node = resourcePrincipal(caller, resource);
      return { href: node.href, propstats: await propstatsOf(node, request) };
    }),
  );
}
