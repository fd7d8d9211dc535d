import fc from 'fast-check';
import { isObject, resolve } from '../support/openapi-document.js';
import { bodyFieldsOf, edgeValuesOf } from './edge-values.js';
import { jsonBodySchema, onTheWire, parametersOf, poolKeyOf, queryPartsOf, replaced, type Draft, type FuzzRequest, type OperationTarget } from './fuzz-request.js';
import { schemaArbitrary, type Pools } from './schema-arbitrary.js';

/** One value of an arbitrary, the same for the same seed. */
const drawn = <T>(arbitrary: fc.Arbitrary<T>, seed: number): T => fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;

/**
 * Every edge of one operation, each once: a request that is valid but for one query parameter or
 * one body field set to each of its schema's edge values (edge-values.ts), beside the valid
 * request itself and the one with only the required body fields (where the answer's nulls
 * show). Random requests reach an edge of a given field seldom; this reaches each in every run.
 */
export function edgeSweep(target: OperationTarget, pools: Pools, token: string, seed: number): (FuzzRequest & { tokenLabel: string })[] {
  const parameters = parametersOf(target);
  const segments = new Map(
    parameters
      .filter((p) => p.in === 'path')
      .map((p) => [p.name, pools.strings.get(poolKeyOf(target.path, p.name))?.[0] ?? String(drawn(schemaArbitrary(target.doc, p.schema, pools, p.name), seed))]),
  );
  const required = parameters.filter((p) => p.in === 'query' && p.required);
  const baseQuery = (except?: string) => required.filter((p) => p.name !== except).flatMap((p) => queryPartsOf(p, drawn(schemaArbitrary(target.doc, p.schema, pools, p.name), seed)));
  const body = jsonBodySchema(target);
  const baseBody = body ? (body.example ?? drawn(schemaArbitrary(target.doc, body.schema, pools), seed) ?? {}) : undefined;
  const draft = (query: string[], value: unknown, what: string): Draft => ({ segments, query, body: value, hasBody: body !== undefined, mutations: [what] });

  const drafts: Draft[] = [draft(baseQuery(), baseBody, 'valid')];
  if (body && isObject(baseBody)) {
    const requiredNames = new Set(requiredOf(target, body.schema));
    drafts.push(draft(baseQuery(), Object.fromEntries(Object.entries(baseBody).filter(([name]) => requiredNames.has(name))), 'only the required body fields'));
  }
  for (const p of parameters.filter((q) => q.in === 'query')) {
    for (const value of edgeValuesOf(target.doc, p.schema)) drafts.push(draft([...baseQuery(p.name), ...queryPartsOf(p, value)], baseBody, `query ${p.name}=${JSON.stringify(value)} (edge)`));
  }
  if (body) {
    for (const { path, schema } of bodyFieldsOf(target.doc, body.schema, baseBody)) {
      for (const value of edgeValuesOf(target.doc, schema)) drafts.push(draft(baseQuery(), replaced(baseBody, path, value), `body /${path.join('/')} = ${JSON.stringify(value).slice(0, 60)} (edge)`));
    }
  }
  return drafts.map((d) => onTheWire(target, d, token));
}

/** The required properties of a body schema (its own, and those of its allOf branches). */
function requiredOf(target: OperationTarget, node: unknown): string[] {
  const schema = resolve(target.doc, node);
  if (!isObject(schema)) return [];
  const own = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return [...own, ...(Array.isArray(schema.allOf) ? (schema.allOf as unknown[]).flatMap((branch) => requiredOf(target, branch)) : [])];
}
