import type { ErrorRequestHandler, RequestHandler } from 'express';
import { error as openApiValidatorErrors } from 'express-openapi-validator';
import { DomainError, type DomainErrorCode } from '../domain/domain-error.js';
import { AuthenticationError } from '../infra/auth/principal-from-claims.js';
import { isDatabaseUnavailable } from '../infra/db/database-unavailable.js';

const statusOf: Record<DomainErrorCode, number> = {
  invalid_request: 400,
  forbidden: 403,
  not_found: 404,
  policy_violation: 422,
  booking_conflict: 409,
  slot_available: 409,
  invalid_transition: 409,
  outside_checkin_window: 409,
  already_registered: 409,
  resource_not_found: 422,
  record_conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  dependency_unavailable: 503,
  bundle_member: 409,
  calendar_managed: 409,
};

/** Codes whose name a client reads as `reason`. */
const reasonCodes = new Set<DomainErrorCode>(['invalid_transition', 'outside_checkin_window', 'already_registered', 'resource_not_found', 'bundle_member', 'calendar_managed', 'slot_available']);

/**
 * The refusals of body-parser (express.json) and of raw-body beneath it, by their `type`, with the
 * status each always carries. `entity.verify.failed` is not here: the only verify hook
 * (refuseDeepJson) throws DomainErrors, and anything else it threw would be a bug.
 */
const bodyParserStatus: ReadonlyMap<string, number> = new Map([
  ['entity.parse.failed', 400],
  ['entity.too.large', 413],
  ['request.aborted', 400],
  ['request.size.invalid', 400],
  ['encoding.unsupported', 415],
  ['charset.unsupported', 415],
]);

const validatorErrorClasses = Object.values(openApiValidatorErrors);

type HttpLikeError = {
  status?: unknown;
  statusCode?: unknown;
  type?: unknown;
  message?: unknown;
  errors?: unknown;
};

function body(status: number, message: string, extra: Record<string, unknown> = {}) {
  return { statusCode: status, message, ...extra };
}

const isClientStatus = (status: unknown): status is number => Number.isInteger(status) && (status as number) >= 400 && (status as number) < 500;

/**
 * The status and body of an error the service knows to be the client's, or undefined. Only these
 * keep a 4xx: any other error, whatever `status` or `statusCode` it carries (a storage bucket's
 * 403, another service's 404 thrown from deep inside), is the service's failure, not the client's.
 */
function clientError(error: unknown): { status: number; message: string; extra?: Record<string, unknown> } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as HttpLikeError;
  if (typeof e.type === 'string' && bodyParserStatus.has(e.type) && e.status === bodyParserStatus.get(e.type)) {
    const status = e.status as number;
    const message = e.type === 'entity.parse.failed' ? 'request body is not a valid JSON object' : String(e.message);
    return { status, message };
  }
  if (validatorErrorClasses.some((errorClass) => error instanceof errorClass) && isClientStatus(e.status)) {
    const errors = Array.isArray(e.errors)
      ? e.errors.map((x: { path?: unknown; message?: unknown } | null) => ({ path: String(x?.path ?? ''), message: String(x?.message ?? '') }))
      : undefined;
    return { status: e.status, message: String(e.message ?? 'bad request'), extra: errors ? { errors } : {} };
  }
  // express's router, when a path segment is not valid percent-encoding.
  if (error instanceof URIError && e.status === 400) return { status: 400, message: error.message };
  return undefined;
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
  const known = clientError(error);
  if (known) {
    res.status(known.status).json(body(known.status, known.message, known.extra));
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
