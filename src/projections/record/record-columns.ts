import type { RecordKind } from '../../domain/record/record-kind.js';
import type { FieldPath } from '../../domain/record/record-query.js';

/** SQL alias of the record's own table. */
export const rootAlias = 'root';

/** SQL alias of a to-one relation joined for a filter or a sort. */
export const relationAlias = (relation: string) => `rel_${relation}`;

/** The column behind an allow-listed field: the only way a field name becomes an identifier. */
export function columnOf(kind: RecordKind, field: string): string {
  const spec = kind.fields[field];
  if (!spec) throw new Error(`${kind.name} has no field ${field}`);
  return spec.column;
}

/** `alias.column` of a parsed field path, for eb.ref. */
export function columnRef(kind: RecordKind, path: FieldPath): string {
  if (path.relation === null) return `${rootAlias}.${columnOf(kind, path.field)}`;
  const relation = kind.relations[path.relation];
  if (!relation) throw new Error(`${kind.name} has no relation ${path.relation}`);
  return `${relationAlias(path.relation)}.${columnOf(relation.kind(), path.field)}`;
}
