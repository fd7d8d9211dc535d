import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { DomainError } from '../domain/domain-error.js';

/** Deeper JSON than this is refused before it is parsed (contract §12). */
export const maxJsonDepth = 64;

/**
 * Query parameters that the four OpenAPI documents declare as integers. Their values become SQL
 * numbers, where "1e400" turns into Infinity and 2^53 + 1 into a different number.
 */
export const numericQueryParameters: ReadonlySet<string> = new Set(['page', 'limit', 'per_page', 'offset', 'cache', 'slotMinutes', 'after', 'minCapacity', 'units']);

const [openBracket, closeBracket, openBrace, closeBrace, quote, backslash] = ['[', ']', '{', '}', '"', '\\'].map((c) => c.charCodeAt(0));

/** A 400 in the contract's shape, naming where the bad input was. */
const refused = (path: string, message: string) => new DomainError('invalid_request', `${path}: ${message}`, { errors: [{ path, message }] });

/**
 * The `verify` hook of the JSON parser: counts nesting on the raw bytes, in one pass and without
 * recursion, so that a body nested 10,000 levels is refused before JSON.parse or any walk sees it.
 */
export function refuseDeepJson(_req: IncomingMessage, _res: unknown, raw: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i];
    if (inString) {
      if (byte === backslash) i++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) {
      inString = true;
    } else if (byte === openBracket || byte === openBrace) {
      if (++depth > maxJsonDepth) throw Object.assign(refused('/body', `JSON nested deeper than ${maxJsonDepth} levels`), { status: 400 });
    } else if (byte === closeBracket || byte === closeBrace) {
      depth--;
    }
  }
}

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored (PostgreSQL refuses NUL in text and jsonb, lone surrogates in jsonb), or undefined. */
function badText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'the NUL character is not allowed';
  if (loneSurrogate.test(text)) return 'an unpaired UTF-16 surrogate is not allowed';
  return undefined;
}

/** Why a JSON number cannot be taken as it is, or undefined. */
function badNumber(n: number): string | undefined {
  if (!Number.isFinite(n)) return 'a number must be finite';
  if (Math.abs(n) > 2 ** 53) return 'a number must not exceed 2^53 in magnitude';
  return undefined;
}

/** Walks a parsed JSON body with an explicit stack (its depth is already bounded by the parser). */
function checkBody(body: unknown): void {
  const stack: { value: unknown; path: string }[] = [{ value: body, path: '/body' }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { value, path } = item;
    if (typeof value === 'string') {
      const problem = badText(value);
      if (problem) throw refused(path, problem);
    } else if (typeof value === 'number') {
      const problem = badNumber(value);
      if (problem) throw refused(path, problem);
    } else if (Array.isArray(value)) {
      value.forEach((element, i) => stack.push({ value: element, path: `${path}/${i}` }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, element] of Object.entries(value)) {
        const problem = badText(key);
        if (problem) throw refused(path, `${problem} in a property name`);
        stack.push({ value: element, path: `${path}/${key}` });
      }
    }
  }
}

/** Decodes one part of a query string as qs and express do; a malformed escape stays as it is. */
function decodeQueryPart(part: string): string {
  const text = part.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `name`, `name[]` and `name[3]` are lists (crud-query-language.md); any other bracket is object-shaped. */
const plainOrListKey = /^[^[\]]*(\[\d*\])?$/;
/** What Number() reads as a number, Infinity or NaN included (hexadecimal and binary stay small). */
const numberLike = /^\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|Infinity|NaN)\s*$/i;

function checkQuery(search: string): void {
  for (const pair of search.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = decodeQueryPart(equals === -1 ? pair : pair.slice(0, equals));
    const value = equals === -1 ? '' : decodeQueryPart(pair.slice(equals + 1));
    const keyProblem = badText(key);
    if (keyProblem) throw refused('/query', `${keyProblem} in a parameter name`);
    const path = `/query/${key}`;
    if (!plainOrListKey.test(key)) throw refused(path, 'bracketed query parameters other than name[] and name[i] are not allowed');
    const valueProblem = badText(value);
    if (valueProblem) throw refused(path, valueProblem);
    const name = key.replace(/\[\d*\]$/, '');
    if (numericQueryParameters.has(name) && numberLike.test(value)) {
      const numberProblem = badNumber(Number(value));
      if (numberProblem) throw refused(path, numberProblem);
    }
  }
}

function checkPath(path: string): void {
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // express answers 400 itself to a segment it cannot decode.
      continue;
    }
    const problem = badText(decoded);
    if (problem) throw refused('/path', problem);
  }
}

/**
 * Refuses, before any validator, router or SQL sees them, the inputs PostgreSQL or a library
 * cannot take (contract §12): NUL and unpaired surrogates in the path, query and body, object-shaped
 * query parameters, and numbers that are not finite or beyond 2^53. Every walk is iterative.
 */
export const refuseHostileInput: RequestHandler = (req, _res, next) => {
  const url = req.originalUrl;
  const start = url.indexOf('?');
  checkPath(start === -1 ? url : url.slice(0, start));
  if (start !== -1) checkQuery(url.slice(start + 1));
  checkBody(req.body);
  next();
};
