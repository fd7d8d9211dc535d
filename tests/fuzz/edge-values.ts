import { isObject, resolve, type Doc, type Json } from '../support/openapi-document.js';

/**
 * Texts shaped as instants that are none: a day February lacks, year and month zero, an offset
 * beyond ±24 h, no offset at all. A parser that throws on them must answer 400, not 500 (issue 38).
 */
export const impossibleInstants = ['2026-02-30T10:00:00Z', '0000-00-00T00:00:00Z', '2027-01-05T10:00:00+25:00', '2027-01-05T10:00:00', '2027-13-01T00:00:00Z'];

const impossibleDates = ['2026-02-30', '0000-00-00', '2027-13-01'];

/**
 * Values at or just past the edges of one schema, valid or not: what a generator drawing mostly
 * valid values rarely reaches. A fraction where a number or an integer goes, the maximum and one
 * past it, the minimum and one below, a large count where no maximum is set, a string one past
 * its maxLength, a value outside its enum, impossible instants and dates.
 */
export function edgeValuesOf(doc: Doc, node: unknown): unknown[] {
  const schema = resolve(doc, node);
  if (!isObject(schema)) return [];
  const values: unknown[] = [];
  if (schema.type === 'string') {
    if (schema.format === 'date-time') values.push(...impossibleInstants);
    if (schema.format === 'date') values.push(...impossibleDates);
    if (Array.isArray(schema.enum)) values.push('none-of-the-enum');
    if (typeof schema.maxLength === 'number' && schema.maxLength < 10_000) values.push('x'.repeat(schema.maxLength + 1));
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    values.push(1.5);
    if (typeof schema.maximum === 'number') values.push(schema.maximum, schema.maximum + 1);
    else values.push(1000);
    if (typeof schema.minimum === 'number') values.push(schema.minimum, schema.minimum - 1);
  }
  return values;
}

/** The schema of an object's properties, allOf branches united. */
export function propertiesOf(doc: Doc, node: unknown): Json {
  const schema = resolve(doc, node);
  if (!isObject(schema)) return {};
  const own = isObject(schema.properties) ? schema.properties : {};
  const inherited = Array.isArray(schema.allOf) ? (schema.allOf as unknown[]).map((branch) => propertiesOf(doc, branch)) : [];
  return Object.assign({}, ...inherited, own);
}

/** Where an edge value can go in a body: each property of its schema, and those of the first item of an array of objects. */
export function bodyFieldsOf(doc: Doc, node: unknown, value: unknown, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; schema: unknown }[] {
  if (depth > 3) return [];
  const fields: { path: (string | number)[]; schema: unknown }[] = [];
  for (const [name, property] of Object.entries(propertiesOf(doc, node))) {
    const at = [...path, name];
    fields.push({ path: at, schema: property });
    const inner = isObject(value) ? value[name] : undefined;
    const resolved = resolve(doc, property);
    if (isObject(resolved) && resolved.type === 'array' && Array.isArray(inner) && inner.length > 0) {
      fields.push(...bodyFieldsOf(doc, resolved.items, inner[0], [...at, 0], depth + 1));
    } else if (isObject(inner)) {
      fields.push(...bodyFieldsOf(doc, property, inner, at, depth + 1));
    }
  }
  return fields;
}
