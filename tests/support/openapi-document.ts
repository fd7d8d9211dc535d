import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** OpenAPI documents as plain JSON, for structural checks in tests. */
export type Json = Record<string, any>;
export type Doc = Json & { paths: Record<string, Json>; components: Json };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The text of openapi/<file> of the repository, as the server serves it. */
export const openApiText = (file: string): string => readFileSync(fileURLToPath(new URL(`../../openapi/${file}`, import.meta.url)), 'utf8');

/** Parses openapi/<file> of the repository. */
export const loadOpenApi = (file: string): Doc => parse(openApiText(file)) as Doc;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Resolves a local `#/...` $ref (recursively) against the raw document. */
export function resolve(doc: Doc, node: unknown): unknown {
  let current = node;
  const seen = new Set<string>();
  while (isObject(current) && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    if (!ref.startsWith('#/')) throw new Error(`non-local $ref ${ref}`);
    let target: unknown = doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (!isObject(target) || !(key in target)) throw new Error(`unresolvable $ref ${ref}`);
      target = target[key];
    }
    current = target;
  }
  return current;
}

export type Operation = { path: string; method: string; label: string; op: Json };

export function operations(doc: Doc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (isObject(op)) out.push({ path, method, label: `${method.toUpperCase()} ${path}`, op });
    }
  }
  return out;
}

/**
 * Walks a request schema (following $refs, properties, items, combinators) and reports
 * every object-like schema that is not closed with `additionalProperties: false`.
 */
export function openObjects(doc: Doc, schema: unknown, where: string, seen = new Set<unknown>()): string[] {
  const s = resolve(doc, schema);
  if (!isObject(s) || seen.has(s)) return [];
  seen.add(s);
  const problems: string[] = [];
  const combinators = (['allOf', 'anyOf', 'oneOf'] as const).filter((k) => Array.isArray(s[k]));
  const objectLike = s.type === 'object' || isObject(s.properties);
  if (objectLike && s.additionalProperties !== false) {
    problems.push(`${where} is not closed (additionalProperties: ${JSON.stringify(s.additionalProperties)})`);
  }
  if (combinators.length > 0 && !objectLike) {
    // A combinator of closed objects is only safe when each branch is closed itself.
    for (const k of combinators) {
      (s[k] as unknown[]).forEach((branch, i) => {
        problems.push(...openObjects(doc, branch, `${where}.${k}[${i}]`, seen));
      });
    }
  }
  if (isObject(s.properties)) {
    for (const [name, prop] of Object.entries(s.properties)) {
      problems.push(...openObjects(doc, prop, `${where}.${name}`, seen));
    }
  }
  if (s.items !== undefined) problems.push(...openObjects(doc, s.items, `${where}[]`, seen));
  if (isObject(s.additionalProperties)) {
    problems.push(...openObjects(doc, s.additionalProperties, `${where}{*}`, seen));
  }
  if (objectLike && combinators.length > 0) {
    for (const k of combinators) {
      (s[k] as unknown[]).forEach((branch, i) => {
        problems.push(...openObjects(doc, branch, `${where}.${k}[${i}]`, seen));
      });
    }
  }
  return problems;
}

