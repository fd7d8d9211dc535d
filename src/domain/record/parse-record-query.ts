import { invalidRequest } from '../domain-error.js';
import { allOf, anyOf, comparisonCount } from './comparison.js';
import { parseFilterCondition } from './parse-filter-condition.js';
import { parseSearch } from './parse-search.js';
import { fieldSpec, resolveField } from './resolve-field.js';
import type { RecordKind } from './record-kind.js';
import type { Condition, JoinRequest, ListQuery, ReadQuery, SortKey } from './record-query.js';

export const defaultLimit = 20;
export const maxLimit = 100;
export const maxConditions = 50;
const maxPosition = 2_147_483_647;

/** A query string as qs parses it (extended form): strings, arrays, objects. */
export type RawQuery = Record<string, unknown>;

const readParams = ['fields', 'select', 'join', 'cache'];
const listParams = [...readParams, 's', 'filter', 'or', 'sort', 'limit', 'per_page', 'offset', 'page'];

/** The list parameters of crud-query-language.md, every field name checked against the kind's allow-list. */
export function parseListQuery(kind: RecordKind, raw: RawQuery): ListQuery {
  rejectUnknown(raw, listParams);
  const take = integer(raw, firstPresent(raw, 'limit', 'per_page'), 'limit', 1, maxLimit) ?? defaultLimit;
  const offset = integer(raw, 'offset', 'offset', 0, maxPosition);
  const page = integer(raw, 'page', 'page', 1, maxPosition);
  return {
    ...parseRead(kind, raw),
    where: whereOf(kind, raw),
    sort: list(raw, 'sort').map((text) => sortKey(kind, text)),
    take,
    // page wins over offset.
    skip: page !== undefined ? take * (page - 1) : (offset ?? 0),
  };
}

/** Read-one operations take fields, join and cache only. */
export function parseReadQuery(kind: RecordKind, raw: RawQuery): ReadQuery {
  rejectUnknown(raw, readParams);
  return parseRead(kind, raw);
}

function parseRead(kind: RecordKind, raw: RawQuery): ReadQuery {
  // No read cache exists: cache=0 (bypass it) and cache=1 both read the database.
  integer(raw, 'cache', 'cache', 0, 1);
  return { fields: fields(kind, raw), joins: joins(kind, raw) };
}

function rejectUnknown(raw: RawQuery, allowed: string[]): void {
  const unknown = Object.keys(raw).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw invalidRequest(`Unknown query parameter '${unknown}'`, unknown);
}

/** Of two aliases, the one that comes first in the query string wins. */
function firstPresent(raw: RawQuery, ...names: string[]): string {
  return Object.keys(raw).find((key) => names.includes(key)) ?? names[0]!;
}

function integer(raw: RawQuery, key: string, name: string, min: number, max: number): number | undefined {
  const value = raw[key];
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !/^-?\d{1,12}$/.test(value)) throw invalidRequest(`Invalid ${name}. Number expected`, name);
  const n = Number(value);
  if (n < min) throw invalidRequest(`Invalid ${name}. At least ${min} expected`, name);
  if (n > max) throw invalidRequest(`Invalid ${name}. At most ${max} expected`, name);
  return n;
}

/** A repeatable parameter: every occurrence, in query-string order. */
function list(raw: RawQuery, name: string): string[] {
  const value = raw[name];
  if (value === undefined || value === '') return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v): v is string => typeof v === 'string')) return value;
  throw invalidRequest(`Invalid ${name}. A list of strings expected`, name);
}

function fields(kind: RecordKind, raw: RawQuery): string[] | null {
  const name = firstPresent(raw, 'fields', 'select');
  const value = raw[name];
  // Only the first occurrence counts, as in the original.
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === '') return null;
  if (typeof first !== 'string') throw invalidRequest(`Invalid ${name}. Comma-separated field names expected`, name);
  const names = first.split(',');
  for (const field of names) fieldSpec(kind, field, name);
  return [...new Set(names)];
}

function whereOf(kind: RecordKind, raw: RawQuery): Condition | null {
  if (raw.s !== undefined) {
    // s overrides filter and or, which are then neither applied nor validated.
    const search = parseSearch(kind, raw.s);
    if (comparisonCount(search) > maxConditions) throw tooManyConditions('s');
    return search;
  }
  const filters = list(raw, 'filter');
  const ors = list(raw, 'or');
  if (filters.length + ors.length > maxConditions) throw tooManyConditions('filter');
  const f = filters.map((text) => parseFilterCondition(kind, text, 'filter'));
  const o = ors.map((text) => parseFilterCondition(kind, text, 'or'));
  if (f.length === 0) return o.length === 0 ? null : anyOf(o);
  if (o.length === 0) return allOf(f);
  // With any filter present, several `or` conditions are AND-ed with each other (§2.4).
  return anyOf([allOf(f), allOf(o)]);
}

const tooManyConditions = (param: string) => invalidRequest(`Too many conditions: at most ${maxConditions}`, param);

function sortKey(kind: RecordKind, text: string): SortKey {
  const parts = text.split(',');
  const [name = '', order] = parts;
  if (name === '') throw invalidRequest('Invalid sort field. String expected', 'sort');
  if (parts.length !== 2 || (order !== 'ASC' && order !== 'DESC')) throw invalidRequest('Invalid sort order. ASC,DESC expected', 'sort');
  const field = resolveField(kind, name, 'sort');
  if (field.spec.type === 'object' || field.spec.type === 'string[]') throw invalidRequest(`Field '${name}' cannot be sorted on`, 'sort');
  return { field: field.path, order };
}

function joins(kind: RecordKind, raw: RawQuery): JoinRequest[] {
  const requests = list(raw, 'join').map((text): JoinRequest => {
    const [relation = '', fieldList, ...rest] = text.split('||');
    if (relation === '') throw invalidRequest('Invalid join field. String expected', 'join');
    if (rest.length > 0) throw invalidRequest('Invalid join. <relation>||<field>,<field> expected', 'join');
    const spec = Object.hasOwn(kind.relations, relation) ? kind.relations[relation] : undefined;
    if (!spec) throw invalidRequest(`Unknown relation '${relation}' in join`, 'join');
    if (fieldList === undefined || fieldList === '') return { relation, fields: null };
    const names = fieldList.split(',');
    for (const field of names) fieldSpec(spec.kind(), field, 'join', `${relation}.${field}`);
    return { relation, fields: [...new Set(names)] };
  });
  const names = requests.map((r) => r.relation);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw invalidRequest(`Relation '${twice}' is joined twice`, 'join');
  return requests;
}
