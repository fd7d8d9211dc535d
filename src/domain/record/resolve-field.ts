import { invalidRequest } from '../domain-error.js';
import type { FieldSpec, RecordKind } from './record-kind.js';
import type { FieldPath } from './record-query.js';

export type ResolvedField = { path: FieldPath; spec: FieldSpec; kind: RecordKind };

/**
 * Looks a client's field name up in the allow-list: `name` on the record, or `relation.name` on a
 * to-one relation. Anything else (unknown, excluded, deeper paths, SQL) is refused before any query.
 */
export function resolveField(kind: RecordKind, name: string, where: string): ResolvedField {
  const dot = name.indexOf('.');
  if (dot === -1) return { path: { relation: null, field: name }, spec: fieldSpec(kind, name, where), kind };
  const relationName = name.slice(0, dot);
  const relation = Object.hasOwn(kind.relations, relationName) ? kind.relations[relationName] : undefined;
  if (!relation) throw invalidRequest(`Unknown field '${name}' in ${where}`, where);
  if (relation.cardinality !== 'one') throw invalidRequest(`Field '${name}' is on the to-many relation '${relationName}': it cannot be used in ${where}`, where);
  const target = relation.kind();
  const field = name.slice(dot + 1);
  return { path: { relation: relationName, field }, spec: fieldSpec(target, field, where, name), kind: target };
}

export function fieldSpec(kind: RecordKind, field: string, where: string, shownAs = field): FieldSpec {
  if (kind.excluded.includes(field)) throw invalidRequest(`Field '${shownAs}' cannot be used in ${where}`, where);
  const spec = Object.hasOwn(kind.fields, field) ? kind.fields[field] : undefined;
  if (!spec) throw invalidRequest(`Unknown field '${shownAs}' in ${where}`, where);
  return spec;
}
