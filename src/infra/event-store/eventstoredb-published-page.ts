import { FORWARDS, START, type EventStoreDBClient, type Position } from '@eventstore/db-client';
import { toEventEnvelope } from '../../domain/event-envelope.js';
import type { RecordedEvent } from './event-store.js';
import { eventsOf, isSystemEvent } from './eventstoredb-reads.js';
import type { PublishedJsonPage, PublishedPage, PublishedRead } from './log-reader.js';

/** How many events of `$all` one page looks at, matching or not: a rare filter costs bounded work per page. */
const scanWindow = 10_000;

/**
 * Whether `commit` is the commit position of an event of `$all`. Every event appended through gRPC
 * (as this service appends) has commit = prepare = its own log position; the events of an explicit
 * transaction of the legacy TCP API share the commit position of their commit record.
 */
async function namesEvent(client: EventStoreDBClient, commit: bigint): Promise<boolean> {
  for await (const event of eventsOf(client.readAll({ fromPosition: { commit, prepare: 0n }, direction: FORWARDS, maxCount: 1n }))) {
    return event.position.commit === commit;
  }
  return false;
}

/** Whether the event is published under one of `names`, in `workspace` when one is given (the envelope says both). */
function matches(event: RecordedEvent, read: PublishedRead): boolean {
  const envelope = toEventEnvelope(event);
  return envelope !== null && read.names.includes(envelope.event) && (read.workspace === undefined || envelope.workspace === read.workspace);
}

/**
 * A page of the audit feed from `$all`. The numeric position of the contract is the commit position
 * (for events appended through gRPC, commit = prepare, the `position` of their envelopes): a page
 * continues from `{ commit, prepare: commit }`, strictly after every event of that commit, and a
 * page never ends inside one commit's events, so that each event is seen exactly once. `$all` holds
 * committed events only, in commit order: no commit can land behind a position already read. With
 * `upTo`, the page stops at the first commit past it.
 */
export async function readPublishedPage(client: EventStoreDBClient, read: PublishedRead): Promise<PublishedPage | null> {
  const after = BigInt(read.after);
  const upTo = read.upTo === undefined ? undefined : BigInt(read.upTo);
  if (after !== 0n && !(await namesEvent(client, after))) return null;
  if (upTo !== undefined && upTo !== 0n && !(await namesEvent(client, upTo))) return null;
  if (upTo !== undefined && after >= upTo) return { events: [], next: read.upTo! };
  const fromPosition: Position | typeof START = after === 0n ? START : { commit: after, prepare: after };
  const events: RecordedEvent[] = [];
  let scanned = 0;
  let lastCommit: bigint | null = null;
  for await (const event of eventsOf(client.readAll({ fromPosition, direction: FORWARDS }))) {
    if (event.position.commit <= after && after !== 0n) continue;
    if (upTo !== undefined && event.position.commit > upTo) return { events, next: read.upTo! };
    const pageDone = events.length >= read.maxCount || scanned >= scanWindow;
    if (pageDone && event.position.commit !== lastCommit) break;
    scanned += 1;
    lastCommit = event.position.commit;
    if (!isSystemEvent(event) && matches(event, read)) events.push(event);
  }
  return { events, next: lastCommit === null ? read.after : Number(lastCommit) };
}

/** `readPublishedPage` with each event as the JSON text of its envelope. */
export async function readPublishedJsonPage(client: EventStoreDBClient, read: PublishedRead): Promise<PublishedJsonPage | null> {
  const page = await readPublishedPage(client, read);
  if (!page) return null;
  const envelopes = page.events.flatMap((event) => {
    const envelope = toEventEnvelope(event);
    return envelope ? [JSON.stringify(envelope)] : [];
  });
  return { envelopes, next: page.next };
}
