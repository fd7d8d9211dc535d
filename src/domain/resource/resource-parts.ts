import { invalidRequest, type DomainError } from '../domain-error.js';
import type { Resource } from './resource.js';

/** A whole has 1–20 parts (contract §22). */
export const maxParts = 20;

/** What a decision on a resource's parts or units reads: the live resources its parts name, and the wholes holding it. */
export type PartsState = { named: ReadonlyMap<string, Resource>; wholes: readonly Resource[] };

export const noParts: PartsState = { named: new Map(), wholes: [] };

/** The first problem with a named part, or null. */
function partProblem(self: Pick<Resource, 'id' | 'workspace'>, id: string, state: PartsState): string | null {
  if (id === self.id) return 'a resource cannot be a part of itself';
  const part = state.named.get(id);
  if (!part || part.removed || part.workspace !== self.workspace) return `${id} is no registered resource of this workspace`;
  if (part.units !== 1) return `${id} has ${part.units} units: a part has one`;
  if (part.parts !== null) return `${id} has parts of its own: a part has none`;
  return null;
}

/**
 * The 400 of contract §22 for `self` with these `parts` and `units` (after the request), or null:
 * each part a live resource of the workspace with one unit and no parts, not itself, none twice; a
 * whole has one unit; a part of a whole (`state.wholes`) keeps one unit and gets no parts.
 */
export function partsRefusal(self: Pick<Resource, 'id' | 'workspace'>, parts: readonly string[] | null, units: number, state: PartsState): DomainError | null {
  if (parts !== null) {
    if (parts.length < 1 || parts.length > maxParts) return invalidRequest(`parts lists 1 to ${maxParts} resources, or is null`, '/body/parts');
    if (new Set(parts).size !== parts.length) return invalidRequest('parts names each resource once', '/body/parts');
    for (const [i, id] of parts.entries()) {
      const problem = partProblem(self, id, state);
      if (problem) return invalidRequest(problem, `/body/parts/${i}`);
    }
    if (state.wholes.length > 0) return invalidRequest(`the resource is a part of ${state.wholes[0]!.id}: a part has no parts`, '/body/parts');
    if (units !== 1) return invalidRequest('a resource with parts has one unit', '/body/units');
  }
  if (state.wholes.length > 0 && units !== 1) return invalidRequest(`the resource is a part of ${state.wholes[0]!.id}: a part has one unit`, '/body/units');
  return null;
}

/**
 * The resources each one shares a booking with (contract §22), from the wholes' parts: a whole and
 * each of its parts, and two wholes with a part in common. A resource in none is absent.
 */
export function sharingOf(wholes: readonly { id: string; parts: readonly string[] }[]): Map<string, Set<string>> {
  const sharing = new Map<string, Set<string>>();
  const share = (a: string, b: string) => {
    if (a === b) return;
    (sharing.get(a) ?? sharing.set(a, new Set()).get(a)!).add(b);
    (sharing.get(b) ?? sharing.set(b, new Set()).get(b)!).add(a);
  };
  const wholesOfPart = new Map<string, string[]>();
  for (const whole of wholes) {
    for (const part of whole.parts) {
      share(whole.id, part);
      for (const other of wholesOfPart.get(part) ?? []) share(whole.id, other);
      wholesOfPart.set(part, [...(wholesOfPart.get(part) ?? []), whole.id]);
    }
  }
  return sharing;
}
