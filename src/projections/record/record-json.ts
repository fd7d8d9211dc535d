import type { FieldSpec, RecordJson, RecordKind } from '../../domain/record/record-kind.js';
import type { JoinRequest } from '../../domain/record/record-query.js';

/** A column value as JSON: times in ISO 8601 UTC, numerics as numbers. */
function fromColumn(spec: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (spec.type === 'timestamp') return new Date(value as string | Date).toISOString();
  if ((spec.type === 'number' || spec.type === 'integer') && typeof value === 'string') return Number(value);
  return value;
}

function fromRow(kind: RecordKind, row: Record<string, unknown>): RecordJson {
  const record: RecordJson = {};
  for (const [name, value] of Object.entries(row)) {
    const spec = kind.fields[name];
    if (spec) record[name] = fromColumn(spec, value);
  }
  return record;
}

/** A selected row (aliased to JSON names) as the record answered, joined relations included. */
export function recordJsonOf(kind: RecordKind, row: Record<string, unknown>, joins: JoinRequest[]): RecordJson {
  const record = fromRow(kind, row);
  for (const { relation } of joins) {
    const target = kind.relations[relation]!.kind();
    const value = row[relation];
    record[relation] = Array.isArray(value)
      ? value.map((item: Record<string, unknown>) => fromRow(target, item))
      : value
        ? fromRow(target, value as Record<string, unknown>)
        : null;
  }
  return record;
}

/** Column values to write for a record; jsonb values travel as JSON text. */
export function columnValuesOf(kind: RecordKind, record: RecordJson): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(kind.fields)) {
    if (!Object.hasOwn(record, name)) continue;
    const value = record[name];
    values[spec.column] = (spec.type === 'object' || spec.type === 'string[]') && value !== null ? JSON.stringify(value) : value;
  }
  return values;
}
