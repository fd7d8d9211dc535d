import { invalidRequest } from '../domain-error.js';
import type { RawQuery } from './parse-record-query.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The `req` of an export body (a query object with the list parameters) in the shape a query
 * string parses to: numbers become text, an `s` object its JSON.
 */
export function exportQueryOf(req: unknown): RawQuery {
  if (req === undefined || req === null) return {};
  if (!isObject(req)) throw invalidRequest('req must be an object of list query parameters', '/body/req');
  const raw: RawQuery = {};
  for (const [name, value] of Object.entries(req)) {
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) raw[name] = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) raw[name] = String(value);
    else if (name === 's' && isObject(value)) raw[name] = JSON.stringify(value);
    else throw invalidRequest(`req.${name} must be a string, a list of strings or an integer`, `/body/req/${name}`);
  }
  return raw;
}
