import { invalidRequest } from '../../domain/domain-error.js';
import type { DavNode } from './dav-node.js';
import { propertyElement } from './dav-property.js';
import { element, type DavResponse, type PropStat, type XmlNode } from './multistatus.js';
import { childNamed, type XmlElement } from './xml-request.js';
import { clark, dav } from './xml-names.js';

/** Which properties a PROPFIND or REPORT asks for (RFC 4918 §9.1). */
export type PropRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: { ns: string; name: string }[] };

/** The request inside `parent` (a propfind, a report): its DAV:prop, allprop or propname; an empty body is allprop. */
export function propRequestOf(parent: XmlElement | null | undefined): PropRequest {
  if (!parent) return { kind: 'allprop' };
  const prop = childNamed(parent, dav, 'prop');
  if (prop) return { kind: 'prop', names: prop.children.map((c) => ({ ns: c.ns, name: c.name })) };
  if (childNamed(parent, dav, 'propname')) return { kind: 'propname' };
  return { kind: 'allprop' };
}

/** A PROPFIND body: a DAV:propfind element, or none. */
export function propfindRequestOf(body: XmlElement | null): PropRequest {
  if (body && !(body.ns === dav && body.name === 'propfind')) throw invalidRequest('a PROPFIND body is a DAV:propfind element', '/body');
  return propRequestOf(body);
}

/** The node's properties as asked: those it has (200), and those it lacks (404). */
export async function propstatsOf(node: DavNode, request: PropRequest): Promise<PropStat[]> {
  const all = [...node.properties.values()];
  if (request.kind === 'propname') return [{ status: 200, props: all.map((p) => element(p.ns, p.name)) }];
  if (request.kind === 'allprop') return [{ status: 200, props: await Promise.all(all.filter((p) => p.inAllprop).map(propertyElement)) }];
  const found: XmlNode[] = [];
  const missing: XmlNode[] = [];
  for (const name of request.names) {
    const p = node.properties.get(clark(name.ns, name.name));
    if (p) found.push(await propertyElement(p));
    else missing.push(element(name.ns, name.name));
  }
  return [
    { status: 200, props: found },
    { status: 404, props: missing },
  ];
}

/** Depth: 0 or 1 (infinity, or none, is read as 1: nothing under /dav/ nests deeper than a calendar's objects). */
export function depthOf(header: string | undefined): 0 | 1 {
  if (header === undefined) return 1;
  const value = header.trim().toLowerCase();
  if (value === '0') return 0;
  if (value === '1' || value === 'infinity') return 1;
  throw invalidRequest('Depth is 0, 1 or infinity', '/header/depth');
}

export async function propfindResponses(node: DavNode, depth: 0 | 1, request: PropRequest): Promise<DavResponse[]> {
  const nodes = depth === 1 && node.members ? [node, ...(await node.members())] : [node];
  return Promise.all(nodes.map(async (n) => ({ href: n.href, propstats: await propstatsOf(n, request) })));
}
