import express, { type RequestHandler } from 'express';
import { invalidRequest } from '../domain/domain-error.js';
import { refuseDeepJson } from './refuse-hostile-input.js';

/**
 * express.json for every area: 256 KiB at most, nesting refused before parsing (refuseDeepJson).
 * Its refusals carry a body-parser `type` the error handler maps, all but one: a body that does not
 * decompress as its Content-Encoding says (or a stream that failed while being read) comes with a
 * 400 and no type, so it is told here, where it is known to be the body's, as a 400 of our own.
 */
export function jsonBodyParser(): RequestHandler {
  const parse = express.json({ limit: '256kb', verify: refuseDeepJson });
  return (req, res, next) => {
    parse(req, res, (error?: unknown) => {
      const untyped = typeof error === 'object' && error !== null && (error as { type?: unknown }).type === undefined;
      if (untyped && (error as { status?: unknown }).status === 400) {
        next(invalidRequest('request body could not be read: it does not decode as its Content-Encoding says', '/body'));
        return;
      }
      next(error);
    });
  };
}
