import { randomUUID } from 'node:crypto';
import type { Express, Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../infra/logger.js';

const secretQueryValue = /([?&](?:code|state|token|apikey)=)[^&]*/gi;

/** The URL as logged: OAuth codes and states travel in the query, and keep their names only. */
const loggedUrl = (url: string | undefined) => url?.replace(secretQueryValue, '$1[Redacted]');

const requestId = (header: unknown) => (typeof header === 'string' && /^[\w.-]{1,64}$/.test(header) ? header : randomUUID());

const childLogger = Symbol('request logger');

type LoggedRequest = Request & { id?: string; [childLogger]?: Logger };

/**
 * Every request gets an id (`x-request-id`, the client's when it sends a plain one) and `req.log`,
 * a logger bound to it. At `info` and below pino-http writes one line per request. Above `info`
 * no such line is ever written, yet pino-http would still build and serialise the bound logger for
 * every request (about 5 % of a read's CPU): then only the id is set, and `req.log` is built the
 * first time something logs (an error).
 */
export function requestLogging(app: Express, logger: Logger): RequestHandler {
  const genReqId = (req: { headers: Record<string, unknown> }, res: { setHeader(name: string, value: string): unknown }) => {
    const id = requestId(req.headers['x-request-id']);
    res.setHeader('x-request-id', id);
    return id;
  };
  if (logger.isLevelEnabled('info')) {
    return pinoHttp({
      logger,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]'],
      serializers: { req: (req: { url?: string }) => ({ ...req, url: loggedUrl(req.url), query: undefined }) },
      genReqId,
    });
  }
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: LoggedRequest) {
      this[childLogger] ??= logger.child({ req: { id: this.id, method: this.method, url: loggedUrl(this.originalUrl) } });
      return this[childLogger];
    },
  });
  return (req, res, next) => {
    (req as LoggedRequest).id = genReqId(req, res);
    next();
  };
}
