import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { canonicalJson } from '../infra/event-store/hash-chain.js';

/**
 * hex SHA-256 of the method, the URL as sent (path and query) and the body as canonical JSON:
 * the same request whatever the order of its members or its whitespace.
 */
export function requestFingerprint(req: Request): string {
  return createHash('sha256')
    .update(`${req.method}\n${req.originalUrl}\n`)
    .update(canonicalJson(req.body ?? null))
    .digest('hex');
}
