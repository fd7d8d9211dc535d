import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, type DomainErrorCode } from '../domain/domain-error.js';
import { AuthenticationError } from '../infra/auth/principal-from-claims.js';
import { isDatabaseUnavailable } from '../infra/db/database-unavailable.js';

const statusOf: Record<DomainErrorCode, number> = {
  invalid_request: 400,
  forbidden: 403,
  not_found: 404,
  policy_violation: 422,
  booking_conflict: 409,
  invalid_transition: 409,
  outside_checkin_window: 409,
  already_registered: 409,
  resource_not_found: 422,
  record_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  dependency_unavailable: 503,
};

/** Codes whose name a client reads as `reason`. */
const reasonCodes = new Set<DomainErrorCode>(['invalid_transition', 'outside_checkin_window', 'already_registered', 'resource_not_found']);

type HttpLikeError = {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: { path?: string; message?: string }[];
};

function body(status: number, message: string, extra: Record<string, unknown> = {}) {
  return { statusCode: status, message, ...extra };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(body(404, `no route for ${req.method} ${req.path}`));
};

export const httpErrorHandler: ErrorRequestHandler = (error: unknown, req, res, next) => {
  // A response already under way cannot change its status: let express end the connection.
  if (res.headersSent) {
    next(error);
    return;
  }
  if (error instanceof DomainError) {
    const status = statusOf[error.code];
    const extra: Record<string, unknown> = { ...error.details };
    if (reasonCodes.has(error.code)) extra.reason = error.code;
    res.status(status).json(body(status, error.message, extra));
    return;
  }
  if (error instanceof AuthenticationError) {
    res.status(401).set('www-authenticate', 'Bearer').json(body(401, `unauthorized: ${error.message}`));
    return;
  }
  const e = (error ?? {}) as HttpLikeError;
  const status = Number.isInteger(e.status) ? e.status : Number.isInteger(e.statusCode) ? e.statusCode : undefined;
  if (e.type === 'entity.parse.failed') {
    res.status(400).json(body(400, 'request body is not a valid JSON object'));
    return;
  }
  if (status && status >= 400 && status < 500) {
    const errors = Array.isArray(e.errors) ? e.errors.map((x) => ({ path: String(x?.path ?? ''), message: String(x?.message ?? '') })) : undefined;
    res.status(status).json(body(status, e.message ?? 'bad request', errors ? { errors } : {}));
    return;
  }
  if (isDatabaseUnavailable(error)) {
    req.log?.warn({ err: error }, 'database unavailable');
    res.status(503).json(body(503, 'a dependency is unavailable; try again later'));
    return;
  }
  req.log?.error({ err: error }, 'unhandled error');
  res.status(500).json(body(500, 'internal error'));
};
