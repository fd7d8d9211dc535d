import { currentTraceMetadata } from '../telemetry/trace-context.js';
import {
  BACKWARDS,
  END,
  FORWARDS,
  jsonEvent,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendExpectedRevision,
  type AppendResult,
  type EventStoreDBClient,
  type ResolvedEvent,
} from '@eventstore/db-client';
import type { ExpectedRevision } from './event-store.js';
import { chainHash, genesisHash } from './hash-chain.js';

/** The metadata member that holds an event's chain link on EventStoreDB, which has no column for it. */
const hashMember = 'hash';

/** The chain link an event's metadata holds; undefined for an event appended before the chain was kept. */
export function hashOf(metadata: unknown): string | undefined {
  const hash = (metadata as Record<string, unknown> | undefined)?.[hashMember];
  return typeof hash === 'string' ? hash : undefined;
}

type Stored = NonNullable<ResolvedEvent['event']>;

export type EventToChain = { id: string; type: string; data: Record<string, unknown>; metadata: Record<string, unknown> };

/** An expectation of 'any' or 'stream_exists' is pinned to the revision read; a writer in between costs a new try. */
const maxTries = 20;

async function firstOf(read: AsyncIterable<ResolvedEvent>): Promise<Stored | null> {
  try {
    for await (const resolved of read) if (resolved.event) return resolved.event;
  } catch (error) {
    if (error instanceof StreamNotFoundError) return null;
    throw error;
  }
  return null;
}

/** The hash the stream's chain holds after `event`; an event from before the chain gets it recomputed from the stream's start. */
async function headAfter(client: EventStoreDBClient, streamId: string, event: Stored | null): Promise<string> {
  if (!event) return genesisHash;
  const stored = hashOf(event.metadata);
  if (stored) return stored;
  let head = genesisHash;
  for await (const resolved of client.readStream(streamId, { fromRevision: START, direction: FORWARDS, maxCount: event.revision + 1n })) {
    if (resolved.event) head = chainHash(head, { type: resolved.event.type, data: resolved.event.data, revision: Number(resolved.event.revision) });
  }
  return head;
}

/** The event the append goes on top of, and the expectation that pins it. */
async function previousOf(client: EventStoreDBClient, streamId: string, expected: ExpectedRevision): Promise<{ previous: Stored | null; pinned: AppendExpectedRevision }> {
  if (expected === 'no_stream') return { previous: null, pinned: NO_STREAM };
  if (typeof expected === 'number') {
    // A stream without that revision refuses the append whatever it carries.
    const previous = await firstOf(client.readStream(streamId, { fromRevision: BigInt(expected), direction: FORWARDS, maxCount: 1n }));
    return { previous, pinned: BigInt(expected) };
  }
  const previous = await firstOf(client.readStream(streamId, { fromRevision: END, direction: BACKWARDS, maxCount: 1n }));
  if (previous) return { previous, pinned: previous.revision };
  return { previous: null, pinned: expected === 'any' ? NO_STREAM : STREAM_EXISTS };
}

/**
 * Appends with the hash chain of contract §13 in each event's metadata: the previous event of the
 * stream is the one at the expected revision (for 'any' and 'stream_exists', the last one read,
 * whose revision the append then expects). Answers the events as appended, links included.
 */
export async function appendChained(
  client: EventStoreDBClient,
  streamId: string,
  events: EventToChain[],
  expected: ExpectedRevision,
): Promise<{ result: AppendResult; events: (EventToChain & { hash: string })[] }> {
  for (let tries = 1; ; tries++) {
    const { previous, pinned } = await previousOf(client, streamId, expected);
    let head = await headAfter(client, streamId, previous);
    const first = previous ? Number(previous.revision) + 1 : 0;
    const chained = events.map((event, i) => {
      // The chain covers the data as stored: JSON, as a reader will parse it back.
      head = chainHash(head, { type: event.type, data: JSON.parse(JSON.stringify(event.data)), revision: first + i });
      return { ...event, metadata: { ...currentTraceMetadata(), ...event.metadata, [hashMember]: head }, hash: head };
    });
    try {
      const result = await client.appendToStream(
        streamId,
        chained.map((e) => jsonEvent({ id: e.id, type: e.type, data: e.data, metadata: e.metadata })),
        { expectedRevision: pinned },
      );
      return { result, events: chained };
    } catch (error) {
      const movedUnderUs = (expected === 'any' || (expected === 'stream_exists' && previous)) && error instanceof WrongExpectedVersionError;
      if (!movedUnderUs || tries >= maxTries) throw error;
    }
  }
}
