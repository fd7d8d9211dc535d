import fc from 'fast-check';
import { isObject, resolve, type Doc, type Json } from '../support/openapi-document.js';

/** Values the seeded records answer to, by path or property name, so that valid requests hit real records. */
export type Pools = { strings: Map<string, string[]> };

const isoDates = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true });
const time = fc.tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45)).map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

function stringOf(schema: Json, name: string, pools: Pools): fc.Arbitrary<unknown> {
  const pooled = pools.strings.get(name);
  const base = ((): fc.Arbitrary<string> => {
    switch (schema.format) {
      case 'uuid':
        return fc.uuid();
      case 'date-time':
        return isoDates.map((d) => d.toISOString());
      case 'date':
        return isoDates.map((d) => d.toISOString().slice(0, 10));
      case 'email':
        return fc.emailAddress();
      case 'uri':
        return fc.webUrl();
    }
    if (typeof schema.pattern === 'string') {
      if (schema.pattern.includes(':[0-5][0-9]')) return time;
      return fc.stringMatching(new RegExp(schema.pattern), { maxLength: 20 });
    }
    const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const maxLength = typeof schema.maxLength === 'number' ? Math.min(schema.maxLength, minLength + 24) : minLength + 24;
    return fc.string({ minLength, maxLength });
  })();
  return pooled && pooled.length > 0 ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pooled) }, { weight: 1, arbitrary: base }) : base;
}

function numberOf(schema: Json, name: string, pools: Pools): fc.Arbitrary<unknown> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, Math.max(min, 0) + 1000) : Math.max(min, 0) + 1000;
  const base = schema.type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const pooled = pools.strings.get(name)?.map(Number).filter((n) => Number.isInteger(n));
  return pooled && pooled.length > 0 ? fc.oneof(fc.constantFrom(...pooled), base) : base;
}

/**
 * An arbitrary of values for an OpenAPI 3.0 schema: mostly valid, using the documented example
 * and the seeded ids where there are some. Depth-bounded, so self-referring schemas terminate.
 */
export function schemaArbitrary(doc: Doc, node: unknown, pools: Pools, name = '', depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, node);
  if (!isObject(schema) || depth > 6) return fc.constant(null);
  const generated = generatedFor(doc, schema, pools, name, depth);
  const withNull = schema.nullable === true ? fc.oneof({ weight: 5, arbitrary: generated }, { weight: 1, arbitrary: fc.constant(null) }) : generated;
  return schema.example !== undefined ? fc.oneof(fc.constant(schema.example), withNull) : withNull;
}

function generatedFor(doc: Doc, schema: Json, pools: Pools, name: string, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    const branches = (schema.oneOf ?? schema.anyOf) as unknown[];
    return fc.oneof(...branches.map((branch) => schemaArbitrary(doc, branch, pools, name, depth + 1)));
  }
  if (Array.isArray(schema.allOf)) return objectOf(doc, merged(doc, schema), pools, depth);
  switch (schema.type) {
    case 'string':
      return stringOf(schema, name, pools);
    case 'integer':
    case 'number':
      return numberOf(schema, name, pools);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const maxLength = Math.min(typeof schema.maxItems === 'number' ? schema.maxItems : 4, minLength + 4);
      return fc.array(schemaArbitrary(doc, schema.items, pools, name, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectOf(doc, schema, pools, depth);
  }
  if (isObject(schema.properties)) return objectOf(doc, schema, pools, depth);
  return fc.jsonValue({ maxDepth: 2 });
}

/** allOf branches as one object schema (properties and required united). */
function merged(doc: Doc, schema: Json): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const branch of schema.allOf as unknown[]) {
    const part = resolve(doc, branch);
    if (!isObject(part)) continue;
    const inner = Array.isArray(part.allOf) ? merged(doc, part) : part;
    Object.assign(properties, inner.properties ?? {});
    required.push(...((inner.required as string[] | undefined) ?? []));
  }
  return { type: 'object', properties, required };
}

function objectOf(doc: Doc, schema: Json, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties).filter((key) => !(resolve(doc, properties[key]) as Json | undefined)?.readOnly);
  if (names.length === 0) return schema.additionalProperties === false ? fc.constant({}) : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
  const required = ((schema.required as string[] | undefined) ?? []).filter((key) => names.includes(key));
  const model = Object.fromEntries(names.map((key) => [key, schemaArbitrary(doc, properties[key], pools, key, depth + 1)]));
  return fc.record(model, { requiredKeys: required });
}
