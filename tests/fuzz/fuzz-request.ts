import fc from 'fast-check';
import { isObject, resolve, type Doc, type Json, type Operation } from '../support/openapi-document.js';
import { bracketedKey, hostileJson, hostileQueryValue, hostileSegment, hugeNumberText, jsonText, RawJson } from './hostile-values.js';
import { bodyFieldsOf, edgeValuesOf } from './edge-values.js';
import { schemaArbitrary, type Pools } from './schema-arbitrary.js';

/** One request as it goes on the wire, printable so that a failure reproduces with curl. */
export type FuzzRequest = {
  method: string;
  /** Path and query, percent-encoded. */
  url: string;
  token: string;
  contentType?: string;
  body?: string;
  /** How the request was made: valid, or which mutations. */
  mutations: string[];
};

export type OperationTarget = Operation & { doc: Doc; file: string };

export type Parameter = { name: string; in: string; schema: Json; required: boolean };

export function parametersOf(target: OperationTarget): Parameter[] {
  const item = target.doc.paths[target.path] as Json;
  const raw = [...((item.parameters as unknown[]) ?? []), ...((target.op.parameters as unknown[]) ?? [])];
  return raw
    .map((p) => resolve(target.doc, p) as Json)
    .filter((p) => p.in === 'path' || p.in === 'query')
    .map((p) => ({ name: p.name as string, in: p.in as string, schema: (resolve(target.doc, p.schema) as Json) ?? {}, required: p.required === true }));
}

/** The collection a path parameter names (`/device/v1/zones/{id}` → zones), which keys its pool. */
export const poolKeyOf = (path: string, name: string) => {
  const segments = path.split('/');
  const at = segments.indexOf(`{${name}}`);
  return at > 0 ? segments[at - 1]! : name;
};

const queryPart = (key: string, value: unknown) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`;

export function queryPartsOf(parameter: Parameter, value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map((item) => queryPart(parameter.name, item));
  if (isObject(value)) return [queryPart(parameter.name, JSON.stringify(value))];
  return [queryPart(parameter.name, value)];
}

export function jsonBodySchema(target: OperationTarget): { schema: unknown; example: unknown } | undefined {
  const body = resolve(target.doc, target.op.requestBody) as Json | undefined;
  const media = isObject(body?.content) ? (body.content['application/json'] as Json | undefined) : undefined;
  return media ? { schema: media.schema, example: media.example } : undefined;
}

/** Every string, number or container inside a body, by its path of keys. */
function locations(value: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    if (item.path.length > 0) out.push(item.path);
    if (Array.isArray(item.value)) item.value.forEach((v, i) => stack.push({ value: v, path: [...item!.path, i] }));
    else if (isObject(item.value)) Object.entries(item.value).forEach(([k, v]) => stack.push({ value: v, path: [...item!.path, k] }));
  }
  return out;
}

export function replaced(value: unknown, path: (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const copy: any = Array.isArray(value) ? [...value] : { ...(value as Json) };
  copy[path[0]!] = replaced(copy[path[0]!], path.slice(1), by);
  return copy;
}

type Mutation = (request: Draft) => fc.Arbitrary<Draft>;
export type Draft = { segments: Map<string, string>; query: string[]; body: unknown; hasBody: boolean; rawBody?: string; contentType?: string; mutations: string[] };

const note = (draft: Draft, what: string): Draft => ({ ...draft, mutations: [...draft.mutations, what] });

/** A query parameter or a body field set to a value at or past an edge of its own schema (edge-values.ts). */
function edgeMutations(target: OperationTarget, parameters: Parameter[]): Mutation[] {
  const queryEdges = parameters.filter((p) => p.in === 'query').flatMap((p) => edgeValuesOf(target.doc, p.schema).map((value) => ({ p, value })));
  const out: Mutation[] = [];
  if (queryEdges.length > 0) {
    out.push((d) => fc.constantFrom(...queryEdges).map(({ p, value }) => note({ ...d, query: [...d.query.filter((part) => !part.startsWith(`${encodeURIComponent(p.name)}=`)), ...queryPartsOf(p, value)] }, `query ${p.name}=${JSON.stringify(value)} (edge)`)));
  }
  const body = jsonBodySchema(target);
  if (body) {
    out.push((d) => {
      const edges = bodyFieldsOf(target.doc, body.schema, d.body).flatMap(({ path, schema }) => edgeValuesOf(target.doc, schema).map((value) => ({ path, value })));
      if (edges.length === 0) return fc.constant(d);
      return fc.constantFrom(...edges).map(({ path, value }) => note({ ...d, body: replaced(d.body, path, value) }, `body /${path.join('/')} = ${JSON.stringify(value).slice(0, 60)} (edge)`));
    });
  }
  return out;
}

function mutationsFor(target: OperationTarget, parameters: Parameter[], hasBody: boolean): Mutation[] {
  const queryNames = parameters.filter((p) => p.in === 'query').map((p) => p.name);
  const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name);
  const out: Mutation[] = [
    (d) => fc.tuple(fc.constantFrom(...queryNames, 'fields', 'page', 'bogus'), hostileQueryValue).map(([name, value]) => note({ ...d, query: [...d.query, queryPart(name, value)] }, `query ${name}=${JSON.stringify(value)}`)),
    (d) =>
      fc
        .constantFrom(...queryNames, 'fields', 'select', 'filter')
        .chain((name) => fc.tuple(bracketedKey(name), fc.constantFrom('1', 'a', '')))
        .map(([key, value]) => note({ ...d, query: [...d.query, `${encodeURIComponent(key)}=${value}`] }, `query key ${key}`)),
    (d) => fc.tuple(fc.constantFrom(...queryNames, 'page', 'limit'), hugeNumberText).map(([name, value]) => note({ ...d, query: [...d.query, queryPart(name, value)] }, `query ${name}=${value}`)),
    (d) => fc.constantFrom('%00', '%ED%A0%80', '%', 'a=%00', '%5B%5D=1').map((raw) => note({ ...d, query: [...d.query, raw] }, `raw query ${raw}`)),
    ...edgeMutations(target, parameters),
  ];
  if (pathNames.length > 0) {
    out.push((d) => fc.tuple(fc.constantFrom(...pathNames), hostileSegment).map(([name, value]) => note({ ...d, segments: new Map(d.segments).set(name, value) }, `path ${name}=${value}`)));
  }
  if (hasBody) {
    out.push(
      (d) => {
        const places = locations(d.body);
        const where = places.length > 0 ? fc.constantFrom(...places) : fc.constant([] as (string | number)[]);
        return fc.tuple(where, hostileJson).map(([path, value]) => note({ ...d, body: replaced(d.body, path, value) }, `body /${path.join('/')} = ${value instanceof RawJson ? value.text.slice(0, 40) : JSON.stringify(value)?.slice(0, 60)}`));
      },
      (d) => fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), hostileJson).map(([key, value]) => note({ ...d, body: isObject(d.body) ? { ...d.body, [key]: value } : d.body }, `body extra property ${JSON.stringify(key)}`)),
      (d) =>
        fc
          .constantFrom('{', '{"a":}', '[', '"text"', '42', 'null', '[]', '{"a":1,"a":2}', '\u0000', `{"x":"${'y'.repeat(300_000)}"}`, `${'['.repeat(100_000)}${']'.repeat(100_000)}`)
          .map((raw) => note({ ...d, rawBody: raw }, `raw body ${raw.slice(0, 30)}${raw.length > 30 ? `… (${raw.length} chars)` : ''}`)),
      (d) => fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1').map((type) => note({ ...d, contentType: type }, `content-type ${type}`)),
    );
  }
  return out;
}

/** Requests for one operation: valid ones from its schemas, and ones with one to three mutations. */
export function requestArbitrary(target: OperationTarget, pools: Pools, tokens: fc.Arbitrary<string>): fc.Arbitrary<FuzzRequest & { tokenLabel: string }> {
  const parameters = parametersOf(target);
  const body = jsonBodySchema(target);
  const segments = fc.record(
    Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, schemaArbitrary(target.doc, p.schema, pools, poolKeyOf(target.path, p.name)).map(String)])),
  );
  const query = fc
    .tuple(...parameters.filter((p) => p.in === 'query').map((p) => fc.option(schemaArbitrary(target.doc, p.schema, pools, p.name).map((v) => queryPartsOf(p, v)), { freq: p.required ? 10 : 2, nil: [] })))
    .map((parts) => parts.flat());
  const bodyValue = body ? fc.oneof({ weight: 1, arbitrary: fc.constant(body.example) }, { weight: 3, arbitrary: schemaArbitrary(target.doc, body.schema, pools) }).map((v) => v ?? {}) : fc.constant(undefined);
  const draft = fc.record({ segments, query, body: bodyValue }).map<Draft>((d) => ({ segments: new Map(Object.entries(d.segments)), query: d.query, body: d.body, hasBody: body !== undefined, mutations: [] }));
  const mutations = mutationsFor(target, parameters, body !== undefined);
  const mutated = draft.chain((d) =>
    // Two requests in five stay valid, so that real records are read and written too.
    fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 3, arbitrary: fc.constant(1) }, { weight: 2, arbitrary: fc.constant(2) }, { weight: 1, arbitrary: fc.constant(3) }).chain((count) => {
      let result: fc.Arbitrary<Draft> = fc.constant(d);
      for (let i = 0; i < count; i++) result = result.chain((current) => fc.constantFrom(...mutations).chain((mutate) => mutate(current)));
      return result;
    }),
  );
  return fc.tuple(mutated, tokens).map(([d, token]) => onTheWire(target, d, token));
}

/** A draft as it goes on the wire, with `token` a labelled token ("LV2 eyJ…"). */
export function onTheWire(target: OperationTarget, d: Draft, token: string): FuzzRequest & { tokenLabel: string } {
  const [tokenLabel, bearer] = token.split(' ', 2) as [string, string];
  const path = target.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = d.segments.get(name) ?? 'x';
    return d.mutations.some((m) => m.startsWith(`path ${name}=`)) ? value : encodeURIComponent(value);
  });
  const text = d.rawBody ?? (d.hasBody ? jsonText(d.body) : undefined);
  return {
    method: target.method.toUpperCase(),
    url: d.query.length > 0 ? `${path}?${d.query.join('&')}` : path,
    token: bearer,
    tokenLabel,
    ...(text !== undefined ? { body: text, contentType: d.contentType ?? 'application/json' } : {}),
    mutations: d.mutations,
  };
}
