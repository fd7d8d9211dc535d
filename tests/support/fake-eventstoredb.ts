import { randomUUID } from 'node:crypto';
import { END, NO_STREAM, START, STREAM_EXISTS, StreamNotFoundError, WrongExpectedVersionError, type EventStoreDBClient } from '@eventstore/db-client';
import sinon from 'sinon';

type Stored = {
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  streamId: string;
  revision: bigint;
  created: Date;
  position: { commit: bigint; prepare: bigint };
  isJson: true;
  contentType: 'application/json';
};

type Appended = { id: string; type: string; data: unknown; metadata?: unknown };

const resolved = (events: Stored[]) => ({
  async *[Symbol.asyncIterator]() {
    for (const event of events) yield { event };
  },
});

/**
 * The part of @eventstore/db-client the adapter calls, answering as a single EventStoreDB node
 * would: an in-memory `$all` with growing positions, stream revisions and their expectations, a
 * system event at the head of `$all`. Its methods are sinon stubs, so a test can see the calls.
 */
export function fakeEventStoreDb() {
  const all: Stored[] = [
    {
      id: randomUUID(), type: '$metadata', data: {}, metadata: {}, streamId: '$$$scavenges', revision: 0n, created: new Date(),
      position: { commit: 100n, prepare: 100n }, isJson: true, contentType: 'application/json',
    },
  ];
  let nextPosition = 1_000n;
  const streamOf = (streamId: string) => all.filter((e) => e.streamId === streamId);

  const client = {
    appendToStream: sinon.spy(async (streamId: string, events: Appended[], options: { expectedRevision?: unknown } = {}) => {
      const stream = streamOf(streamId);
      const current = stream.at(-1)?.revision;
      const expected = options.expectedRevision;
      const matches =
        expected === NO_STREAM ? current === undefined : expected === STREAM_EXISTS ? current !== undefined : typeof expected === 'bigint' ? current === expected : true;
      if (!matches) {
        throw new WrongExpectedVersionError(undefined, { streamName: streamId, expected: expected as bigint, current: current ?? NO_STREAM });
      }
      let revision = current ?? -1n;
      for (const event of events) {
        revision += 1n;
        nextPosition += 137n;
        all.push({
          id: event.id, type: event.type, data: event.data, metadata: event.metadata ?? {}, streamId, revision, created: new Date(),
          position: { commit: nextPosition, prepare: nextPosition }, isJson: true, contentType: 'application/json',
        });
      }
      return { success: true, nextExpectedRevision: revision, position: { commit: nextPosition, prepare: nextPosition } };
    }),
    readStream: sinon.spy((streamId: string, options: { fromRevision?: bigint | typeof END; direction?: string; maxCount?: bigint } = {}) => {
      const stream = streamOf(streamId);
      if (stream.length === 0) {
        return {
          async *[Symbol.asyncIterator]() {
            yield* [];
            throw new StreamNotFoundError(undefined, streamId);
          },
        };
      }
      const backwards = options.direction === 'backwards';
      const from = options.fromRevision === END || options.fromRevision === undefined ? undefined : options.fromRevision;
      const ordered = backwards ? [...stream].reverse() : stream;
      const selected = ordered.filter((e) => from === undefined || (backwards ? e.revision <= from : e.revision >= from));
      return resolved(options.maxCount === undefined ? selected : selected.slice(0, Number(options.maxCount)));
    }),
    readAll: sinon.spy((options: { fromPosition?: typeof START | { commit: bigint; prepare: bigint }; maxCount?: bigint } = {}) => {
      const from = options.fromPosition;
      const selected = all.filter((e) => from === undefined || from === START || typeof from !== 'object' || e.position.commit >= from.commit);
      return resolved(options.maxCount === undefined ? selected : selected.slice(0, Number(options.maxCount)));
    }),
    dispose: sinon.spy(async () => undefined),
  };
  return {
    client: client as unknown as EventStoreDBClient,
    spies: client,
    /** The events of the log that are no system events, in `$all` order. */
    events: () => all.filter((e) => !e.type.startsWith('$')),
  };
}
