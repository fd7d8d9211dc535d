import { blackoutStreamId, coversResource } from '../../domain/blackout/blackout.js';
import { isBlackoutEvent } from '../../domain/blackout/blackout-events.js';
import type { ChainedEvent, LogReader } from '../../infra/event-store/log-reader.js';

const pageSize = 1_000;
/** A workspace's blackouts are few (holidays, closures); a history lists at most this many. */
const maxBlackoutEvents = 10_000;

/**
 * The blackout.create and blackout.delete events that cover a resource (its own or the whole
 * workspace's), in their stream's order: they live in the workspace's blackout stream, not in the
 * resource's, so a resource's history lists them beside its own events rather than inside its
 * revisions and hash chain.
 */
export async function resourceBlackoutEvents(reader: Pick<LogReader, 'readStreamEvents'>, workspace: string, resourceId: string): Promise<ChainedEvent[]> {
  const covering: ChainedEvent[] = [];
  for (let after = -1, read = 0; read < maxBlackoutEvents; ) {
    const page = await reader.readStreamEvents(blackoutStreamId(workspace), after, pageSize);
    for (const event of page) if (isBlackoutEvent(event) && coversResource(event.data.blackout, resourceId)) covering.push(event);
    if (page.length < pageSize) break;
    read += page.length;
    after = Number(page.at(-1)!.streamRevision);
  }
  return covering;
}
