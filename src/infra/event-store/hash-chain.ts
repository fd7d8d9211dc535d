import { createHash } from 'node:crypto';

/** The hash before a stream's first event. */
export const genesisHash = '0'.repeat(64);

/**
 * Canonical JSON (RFC 8785 for the values events hold): object keys sorted by UTF-16 code units,
 * no whitespace, strings and numbers written as JSON.stringify writes them, undefined members left
 * out. The append, the migration and verify-log must write the same bytes for the same event.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const record = value as Record<string, unknown>;
  const members = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  return `{${members.join(',')}}`;
}

/**
 * What the hash covers after the previous hash: `{"data":…,"revision":n,"type":"…"}` in canonical
 * JSON. Written in two parts so that the append statement can put in the revision it claims.
 */
export function canonicalEvent(event: { type: string; data: unknown; revision: number }): string {
  return canonicalJson({ data: event.data, revision: event.revision, type: event.type });
}

/** hex SHA-256 of the previous hash followed by the event's canonical JSON (contract §13). */
export function chainHash(previousHash: string, event: { type: string; data: unknown; revision: number }): string {
  return createHash('sha256').update(previousHash + canonicalEvent(event), 'utf8').digest('hex');
}
