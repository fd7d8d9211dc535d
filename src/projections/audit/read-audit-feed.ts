import type { LogReader, PublishedRead } from '../../infra/event-store/log-reader.js';

export type AuditFeedQuery = Omit<PublishedRead, 'maxCount'> & { limit: number };

const comma = 0x2c;

/** `prefix`, the JSON texts separated by commas, and `suffix`, encoded straight into one buffer (no joined string to flatten and encode again). */
function joinedJson(prefix: string, texts: readonly string[], suffix: string): Buffer {
  let length = Buffer.byteLength(prefix) + Buffer.byteLength(suffix) + Math.max(0, texts.length - 1);
  for (const text of texts) length += Buffer.byteLength(text);
  const bytes = Buffer.allocUnsafe(length);
  let at = bytes.write(prefix);
  texts.forEach((text, i) => {
    if (i > 0) bytes[at++] = comma;
    at += bytes.write(text, at);
  });
  bytes.write(suffix, at);
  return bytes;
}

/**
 * A page of the audit feed as the JSON bytes of `{ events, next }`: the published events (envelopes
 * of contract §8) of the log in its order, each once across pages; `next` is the position to
 * continue after, unchanged when nothing new is final yet. The envelopes come as JSON text from the
 * store and are copied into the answer, not parsed and written again. Null when `after` names no
 * event of the log.
 */
export async function readAuditFeedJson(log: LogReader, query: AuditFeedQuery): Promise<Buffer | null> {
  const { limit, ...read } = query;
  const page = await log.readPublishedJson({ ...read, maxCount: limit });
  if (!page) return null;
  return joinedJson('{"events":[', page.envelopes, `],"next":${page.next}}`);
}
