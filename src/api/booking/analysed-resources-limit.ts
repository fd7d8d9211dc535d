import type { RequestHandler } from 'express';
import { invalidRequest } from '../../domain/domain-error.js';

/** How many times `resourceId` may appear in a utilization query (openapi/booking.yaml says the same). */
export const maxAnalysedResources = 20;

/**
 * Refuses more than `maxAnalysedResources` resourceId values with a 400 that says so, before the
 * query parser's own list limit (qs arrayLimit, also 20) turns a longer list into an object that
 * the validator would refuse as "must be array".
 */
export const limitAnalysedResources: RequestHandler = (req, _res, next) => {
  const start = req.originalUrl.indexOf('?');
  const given = start === -1 ? 0 : new URLSearchParams(req.originalUrl.slice(start + 1)).getAll('resourceId').length;
  if (given > maxAnalysedResources) throw invalidRequest(`resourceId may be given at most ${maxAnalysedResources} times, got ${given}`, '/query/resourceId');
  next();
};
