import type { RequestHandler, Response } from 'express';
import type { Services } from '../services.js';
import type { Executor } from '../infra/db/database.js';
import { walPosition } from '../infra/db/wal-position.js';
import type { LogReader } from '../infra/event-store/log-reader.js';
import { invalidRequest } from '../domain/domain-error.js';

export const consistencyTokenHeader = 'Consistency-Token';

/** The database and log a read is answered from (contract §19). */
export type ReadSide = { db: Executor; logReader: LogReader };

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/**
 * Chooses where each read of the routes below it is answered: the replica when it holds the write
 * named by the request's Consistency-Token (or, without one, lags by at most the bound), else the
 * primary. Writes keep the primary.
 */
export function routeReads(services: Pick<Services, 'db' | 'logReader' | 'logReaderOn' | 'reads' | 'monitoring'>): RequestHandler {
  return async (req, res, next) => {
    if (!isRead(req.method)) {
      res.locals.readSide = { db: services.db, logReader: services.logReader } satisfies ReadSide;
      return next();
    }
    const sent = req.get(consistencyTokenHeader);
    const token = sent === undefined ? undefined : walPosition(sent.trim());
    if (sent !== undefined && token === undefined) {
      return next(invalidRequest(`${consistencyTokenHeader} must be a token this service sent in answer to a write, like "0/16B3748"`, 'header.consistency-token'));
    }
    const { db, target } = await services.reads.readerFor(token);
    services.monitoring.dbReads.inc({ target });
    res.locals.readSide = { db, logReader: db === services.db ? services.logReader : services.logReaderOn(db) } satisfies ReadSide;
    next();
  };
}

/** The side `routeReads` chose for this request. */
export function readSideOf(res: Response): ReadSide {
  const side = res.locals.readSide as ReadSide | undefined;
  if (!side) throw new Error('readSideOf: routeReads is not mounted in front of this route');
  return side;
}

/** The database `routeReads` chose, or `primary` where it is not mounted (a router used on its own). */
export function readDbOf(res: Response, primary: Executor): Executor {
  return (res.locals.readSide as ReadSide | undefined)?.db ?? primary;
}

/**
 * Every answer to a write carries a Consistency-Token naming it: the primary's WAL position taken
 * when the answer is ready, after the write committed. A read that sends it back is answered once
 * a replica has replayed that far. A refusal (4xx, 5xx) wrote nothing: its token is the newest
 * position this process knows, with no statement of its own (refused input never reaches the
 * database).
 */
export function stampConsistencyTokens(services: Pick<Services, 'reads' | 'logger'>): RequestHandler {
  return (req, res, next) => {
    if (isRead(req.method) || req.method === 'OPTIONS') return next();
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    res.end = ((...args: unknown[]) => {
      if (res.headersSent) return end(...args);
      if (res.statusCode >= 400) {
        res.setHeader(consistencyTokenHeader, services.reads.knownToken());
        return end(...args);
      }
      services.reads
        .consistencyToken()
        .then((token) => res.headersSent || res.setHeader(consistencyTokenHeader, token))
        .catch((error: unknown) => services.logger.warn({ err: error }, 'no Consistency-Token for this answer: the primary did not tell its WAL position'))
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
    next();
  };
}
