import { toEventEnvelope, type EventEnvelope } from '../../domain/event-envelope.js';
import type { LogReader, PublishedRead } from '../../infra/event-store/log-reader.js';

export type AuditFeedQuery = Omit<PublishedRead, 'maxCount'> & { limit: number };

/** `next` is the position to continue after; unchanged when nothing new is final yet. */
export type AuditFeedPage = { events: EventEnvelope[]; next: number };

/**
 * A page of the audit feed: the published events (envelopes of contract §8) of the log in its
 * order, each once across pages. Null when `after` names no event of the log.
 */
export async function readAuditFeed(log: LogReader, query: AuditFeedQuery): Promise<AuditFeedPage | null> {
  const { limit, ...read } = query;
  const page = await log.readPublished({ ...read, maxCount: limit });
  if (!page) return null;
  return { events: page.events.flatMap((recorded) => toEventEnvelope(recorded) ?? []), next: page.next };
}
