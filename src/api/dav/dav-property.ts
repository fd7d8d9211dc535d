import { element, type XmlNode } from './multistatus.js';
import { clark, dav } from './xml-names.js';

type Children = readonly (XmlNode | string)[];

/** A live property of a DAV resource: its value computed only when asked for. */
export type DavProperty = { ns: string; name: string; value: () => Children | Promise<Children>; inAllprop: boolean };

/** Properties by Clark name. */
export type DavProperties = ReadonlyMap<string, DavProperty>;

export const property = (ns: string, name: string, value: DavProperty['value'], inAllprop = true): DavProperty => ({ ns, name, value, inAllprop });

export const propertiesOf = (...list: DavProperty[]): DavProperties => new Map(list.map((p) => [clark(p.ns, p.name), p]));

export const hrefs = (...urls: string[]) => urls.map((url) => element(dav, 'href', [url]));

/** The property's element with its value. */
export async function propertyElement(p: DavProperty): Promise<XmlNode> {
  return element(p.ns, p.name, await p.value());
}
