import type { Resource } from '../../domain/resource/resource.js';

/** The resource record of spec 2.1 as clients see it. */
export function resourceJson(resource: Resource) {
  const { removed: _removed, ...fields } = resource;
  return fields;
}
