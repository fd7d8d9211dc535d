import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { idempotencyLeaseMs, idempotencyRetentionMs, isValidIdempotencyKey, verdictOnHeldKey } from '../domain/request/idempotency-key.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  readIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyScope,
  type KeptAnswer,
} from '../infra/idempotency/idempotency-records.js';
import type { Services } from '../services.js';
import { principalOf } from './authenticate.js';
import { requestFingerprint } from './request-fingerprint.js';

type Context = Pick<Services, 'db' | 'now' | 'logger'>;

/** A key freed between the claim and the read (its request answered 5xx, or it expired) is claimed again, a few times at most. */
const claimAttempts = 3;

const errorAnswer = (res: Response, status: number, message: string, extra: Record<string, unknown> = {}) =>
  res.status(status).json({ statusCode: status, message, ...extra });

/**
 * Idempotency-Key on every POST and PATCH it is mounted on (contract §18): the first request with
 * a key runs and its answer is kept (24 h; a 5xx frees the key), a repeat answers the kept status
 * and body with `Idempotent-Replayed: true`. Mounted after authentication (the key is the
 * caller's) and before the routers; the keys live in PostgreSQL, so every process and node agrees.
 */
export function idempotentWrites(services: Context): RequestHandler {
  return async (req, res, next) => {
    if (req.method !== 'POST' && req.method !== 'PATCH') return next();
    const key = req.get('idempotency-key');
    if (key === undefined) return next();
    if (!isValidIdempotencyKey(key)) {
      const message = 'Idempotency-Key must be 1 to 255 printable ASCII characters';
      errorAnswer(res, 400, message, { errors: [{ path: '/headers/idempotency-key', message }] });
      return;
    }
    const principal = principalOf(res);
    const scope: IdempotencyScope = { workspace: principal.workspace ?? '', sub: principal.sub, key };
    const fingerprint = requestFingerprint(req);
    for (let attempt = 0; attempt < claimAttempts; attempt++) {
      const now = services.now().epochMilliseconds;
      const claimId = randomUUID();
      const claim = { fingerprint, claimId, now: new Date(now), leaseUntil: new Date(now + idempotencyLeaseMs), expiresAt: new Date(now + idempotencyRetentionMs) };
      if (await claimIdempotencyKey(services.db, scope, claim)) {
        keepAnswer(services, res, scope, claimId);
        next();
        return;
      }
      const held = await readIdempotencyKey(services.db, scope, new Date(now));
      if (!held) continue;
      const verdict = verdictOnHeldKey(held, fingerprint);
      if (verdict === 'reused') {
        errorAnswer(res, 422, 'this Idempotency-Key was used for another request (method, path or body)', { reason: 'idempotency_key_reused' });
        return;
      }
      if (verdict === 'replay' && held.answer) {
        replay(res, held.answer);
        return;
      }
      break;
    }
    errorAnswer(res, 409, 'a request with this Idempotency-Key is still being processed; retry later', { reason: 'idempotency_key_in_flight' });
  };
}

/**
 * What a replay answers instead of this answer's body: a route whose answer shows a secret once
 * (a calendar password) keeps it out of the idempotency record, which lives 24 hours in the clear.
 */
export function keepForReplay(res: Response, body: unknown): void {
  res.locals.bodyKeptForReplay = JSON.stringify(body);
}

function replay(res: Response, answer: KeptAnswer): void {
  res.status(answer.status).set('Idempotent-Replayed', 'true');
  if (answer.contentType) res.set('Content-Type', answer.contentType);
  res.send(answer.body);
}

/**
 * Keeps the answer once the route gives it, before it leaves: a client that got an answer and sends
 * the request again finds it kept. A 5xx (or an answer streamed in parts) frees the key instead.
 */
function keepAnswer(services: Context, res: Response, scope: IdempotencyScope, claimId: string): void {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  let streamed = false;
  res.write = ((...args: unknown[]) => {
    streamed = true;
    return write(...args);
  }) as Response['write'];
  res.end = ((...args: unknown[]) => {
    res.end = end as Response['end'];
    const [chunk] = args;
    const sent = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
    const body = (res.locals.bodyKeptForReplay as string | undefined) ?? sent;
    const answer: KeptAnswer = { status: res.statusCode, contentType: res.get('Content-Type') ?? null, body };
    const settled =
      answer.status < 500 && !streamed
        ? completeIdempotencyKey(services.db, scope, claimId, answer, new Date(services.now().epochMilliseconds + idempotencyRetentionMs))
        : releaseIdempotencyKey(services.db, scope, claimId);
    // The request's effect stands whatever happens here: answer it; the key then frees itself when its lease ends.
    settled
      .catch((error: unknown) => services.logger.warn({ err: error, status: answer.status }, 'keeping the answer of an Idempotency-Key failed'))
      .finally(() => end(...args));
    return res;
  }) as Response['end'];
}
