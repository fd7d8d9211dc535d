import { BACKWARDS, END, FORWARDS, START, type EventStoreDBClient } from '@eventstore/db-client';
import { chainHash, genesisHash } from './hash-chain.js';
import { eventsOf, isSystemEvent } from './eventstoredb-reads.js';
import type { ChainBreak, ChainVerification } from './log-reader.js';

/** How often (in events) the progress is told. */
const progressEvery = 1_000;

/** Where each stream's chain stands in the walk: its head hash and last revision, or that it broke. */
type StreamWalk = { head: string; revision: number } | 'broken';

/** The commit position of `$all`'s last event: the walk's progress is told against it. */
async function endOfAll(client: EventStoreDBClient): Promise<bigint> {
  for await (const event of eventsOf(client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1n }))) return event.position.commit;
  return 0n;
}

/**
 * Walks `$all` once (ESDB's own events aside) and recomputes every stream's chain from the links
 * each event's metadata holds. ESDB keeps no count of events, so the total told with the progress
 * is an estimate from how far in the log the walk is; it is exact at the end.
 */
export async function verifyEventStoreDbChains(
  client: EventStoreDBClient,
  onProgress: (checked: number, total: number) => void = () => undefined,
): Promise<ChainVerification> {
  const end = await endOfAll(client);
  const streams = new Map<string, StreamWalk>();
  const breaks: ChainBreak[] = [];
  let checked = 0;
  const tell = (commit: bigint) => {
    const estimate = commit > 0n ? Math.round((checked * Number(end)) / Number(commit)) : checked;
    onProgress(checked, Math.max(checked, estimate));
  };
  for await (const event of eventsOf(client.readAll({ fromPosition: START, direction: FORWARDS }))) {
    if (isSystemEvent(event)) continue;
    checked += 1;
    if (checked % progressEvery === 0) tell(event.position.commit);
    const walk = streams.get(event.streamId) ?? { head: genesisHash, revision: -1 };
    if (walk === 'broken') continue;
    const broken = (reason: ChainBreak['reason']) => {
      breaks.push({ globalPosition: event.globalPosition, eventId: event.id, streamId: event.streamId, revision: event.streamRevision, reason });
      streams.set(event.streamId, 'broken');
    };
    if (event.streamRevision !== walk.revision + 1) {
      broken('revision missing before it');
      continue;
    }
    const head = chainHash(walk.head, { type: event.type, data: event.data, revision: event.streamRevision });
    if (event.hash === undefined) broken('no hash stored');
    else if (event.hash !== head) broken('hash does not match');
    else streams.set(event.streamId, { head, revision: event.streamRevision });
  }
  onProgress(checked, checked);
  return { checked, breaks };
}
