import { hash } from 'node:crypto';

/** The hash before a stream's first event. */
export const genesisHash = '0'.repeat(64);

/** Object keys as JSON strings: the same few names recur in every event. Bounded, since data may carry names of its own. */
const quotedKeys = new Map<string, string>();

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < 10_000) quotedKeys.set(key, quoted);
  }
  return quoted;
}

/**
 * Canonical JSON (RFC 8785 for the values events hold): object keys sorted by UTF-16 code units,
 * no whitespace, strings and numbers written as JSON.stringify writes them, undefined members left
 * out. The append, the migration and verify-log must write the same bytes for the same event.
 * Written as loops over one growing string: verify-log spends most of its time here.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i] ?? null);
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${quotedKey(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}

/**
 * What the hash covers after the previous hash: `{"data":…,"revision":n,"type":"…"}` in canonical
 * JSON, from the data's canonical text. Written in two parts so that the append statement can put
 * in the revision it claims.
 */
function canonicalEventOf(type: string, canonicalData: string, revision: number): string {
  return `{"data":${canonicalData},"revision":${revision},"type":${JSON.stringify(type)}}`;
}

/** hex SHA-256 of the previous hash followed by the event's canonical JSON (contract §13), its data given as canonical JSON text. */
export function chainHashOfCanonical(previousHash: string, event: { type: string; canonicalData: string; revision: number }): string {
  return hash('sha256', previousHash + canonicalEventOf(event.type, event.canonicalData, event.revision), 'hex');
}

/** hex SHA-256 of the previous hash followed by the event's canonical JSON (contract §13). */
export function chainHash(previousHash: string, event: { type: string; data: unknown; revision: number }): string {
  return chainHashOfCanonical(previousHash, { type: event.type, canonicalData: canonicalJson(event.data), revision: event.revision });
}
