import ICAL from 'ical.js';
import { findIana } from 'windows-iana';
import { canonicalTimeZone } from '../../time/time-zone.js';

/** What a TZID names: an IANA zone (by its id, CLDR's mapping of a Windows name, or its VTIMEZONE's X-LIC-LOCATION), else the body's own VTIMEZONE rules. */
export type TzidZone = { kind: 'iana'; timeZone: string } | { kind: 'vtimezone'; zone: ICAL.Timezone };

/** The IANA zone a TZID names by itself: an IANA id, or a Windows zone name (Outlook) as CLDR's windowsZones maps it (its first, territory 001 id). */
function ianaOfName(tzid: string): string | null {
  const windows = findIana(tzid)[0];
  return canonicalTimeZone(tzid) ?? (windows === undefined ? null : canonicalTimeZone(windows));
}

/**
 * The zones of the TZIDs of one body, given its VTIMEZONEs: a name IANA or Windows knows is
 * taken as that zone whatever the VTIMEZONE says (Thunderbird, Apple and Outlook write both, and
 * the zone's own rules are exact beyond the years a VTIMEZONE lists); libical clients name the
 * zone in X-LIC-LOCATION; any other TZID is read with the rules of its VTIMEZONE. Null: a TZID
 * that names nothing.
 */
export function tzidZones(vtimezones: readonly ICAL.Component[]): (tzid: string) => TzidZone | null {
  const defined = new Map(vtimezones.map((component) => [String(component.getFirstPropertyValue('tzid') ?? ''), component]));
  const resolved = new Map<string, TzidZone | null>();
  const resolve = (tzid: string): TzidZone | null => {
    const named = ianaOfName(tzid);
    if (named) return { kind: 'iana', timeZone: named };
    const component = defined.get(tzid);
    if (!component) return null;
    const location = component.getFirstPropertyValue('x-lic-location');
    const located = typeof location === 'string' ? ianaOfName(location) : null;
    return located ? { kind: 'iana', timeZone: located } : { kind: 'vtimezone', zone: new ICAL.Timezone(component) };
  };
  return (tzid) => {
    if (!resolved.has(tzid)) resolved.set(tzid, resolve(tzid));
    return resolved.get(tzid)!;
  };
}
