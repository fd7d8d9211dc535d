import type { Request, RequestHandler } from 'express';
import qs from 'qs';
import { invalidRequest } from '../../domain/domain-error.js';
import type { RawQuery } from '../../domain/record/parse-record-query.js';

/**
 * The query string as the record area reads it: qs in the extended form (repeated keys, `[]` and
 * `[i]`), up to 100 items per list and 300 parameters. express's own parser turns more than 20
 * repeated keys into an object, which would refuse 21 to 50 conditions.
 */
export function recordQueryOf(req: Request): RawQuery {
  const start = req.originalUrl.indexOf('?');
  if (start === -1) return {};
  try {
    return qs.parse(req.originalUrl.slice(start + 1), { arrayLimit: 100, depth: 2, parameterLimit: 300, throwOnLimitExceeded: true });
  } catch (error) {
    // qs refuses more parameters or list items than allowed, instead of dropping them.
    throw invalidRequest(error instanceof Error ? error.message : 'query string too long');
  }
}

/** Gives the OpenAPI validator the same view of the query as the record routers. */
export const recordQueryParser: RequestHandler = (req, _res, next) => {
  Object.defineProperty(req, 'query', { value: recordQueryOf(req), writable: true, configurable: true, enumerable: true });
  next();
};
