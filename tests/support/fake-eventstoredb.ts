import { randomUUID } from 'node:crypto';
import { Readable, type ReadableOptions } from 'node:stream';
import {
  BACKWARDS,
  DeadlineExceededError,
  END,
  EVENT_TYPE,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  UnavailableError,
  WrongExpectedVersionError,
  type EventStoreDBClient,
  type Filter,
  type Position,
} from '@eventstore/db-client';
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

/** How a subscription delivers: `burst` events at a time, `pauseMs` apart. */
type Pace = { burst: number; pauseMs: number };

export type FakeEventStoreDb = ReturnType<typeof fakeEventStoreDb>;

const resolved = (events: Stored[]) => ({
  async *[Symbol.asyncIterator]() {
    for (const event of events) yield { event };
  },
});

/** `a` before `b` in `$all`: by commit, then prepare position. */
const before = (a: Position, b: Position) => a.commit < b.commit || (a.commit === b.commit && a.prepare < b.prepare);

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const firstCount = (events: Stored[], maxCount?: bigint | number) => (maxCount === undefined ? events : events.slice(0, Number(maxCount)));

/** What a filter lets through, as the server applies it: a regex or prefixes on the event type or the stream name. */
function passes(filter: Filter | undefined, event: Stored): boolean {
  if (!filter) return true;
  const subject = filter.filterOn === EVENT_TYPE ? event.type : event.streamId;
  return 'regex' in filter ? new RegExp(filter.regex).test(subject) : filter.prefixes.some((prefix) => subject.startsWith(prefix));
}

/**
 * A catch-up subscription to `$all` as the client hands it out: an object-mode stream of
 * `{ event }` that says 'confirmation', delivers the events after its position, says 'caughtUp',
 * then delivers the events appended while it lives, and holds back (backpressure) while its reader
 * does not read. With a pace, it rests after each burst of events.
 */
class FakeSubscription extends Readable {
  private readonly queue: (Stored | 'confirmation' | 'caughtUp')[];
  private delivered = 0;
  private resting: NodeJS.Timeout | undefined;

  constructor(
    private readonly eventFilter: Filter | undefined,
    backlog: Stored[],
    readableOptions: ReadableOptions,
    private readonly forget: (subscription: FakeSubscription) => void,
    private readonly pace: () => Pace | undefined,
  ) {
    super({ ...readableOptions, objectMode: true });
    this.queue = ['confirmation', ...backlog.filter((event) => passes(eventFilter, event)), 'caughtUp'];
  }

  offer(event: Stored) {
    if (!passes(this.eventFilter, event)) return;
    this.queue.push(event);
    this.pump();
  }

  override _read() {
    this.pump();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    clearTimeout(this.resting);
    callback(error);
  }

  private pump() {
    while (this.queue.length > 0 && this.readableLength < this.readableHighWaterMark && !this.destroyed && !this.resting) {
      const item = this.queue.shift()!;
      if (typeof item === 'string') this.emit(item);
      else {
        this.push({ event: item });
        this.restAfterBurst();
      }
    }
  }

  private restAfterBurst() {
    const pace = this.pace();
    this.delivered += 1;
    if (!pace || this.delivered % pace.burst !== 0) return;
    this.resting = setTimeout(() => {
      this.resting = undefined;
      this.pump();
    }, pace.pauseMs);
  }

  async unsubscribe() {
    this.forget(this);
    this.destroy();
  }
}

/**
 * The part of @eventstore/db-client the adapter calls, answering as a single EventStoreDB node
 * would: an in-memory `$all` with growing positions (each event appended through gRPC at its own
 * log position, commit = prepare), stream revisions and their expectations, reads in both
 * directions, a system event at the head of `$all`, filtered catch-up subscriptions (delivering at
 * once, or at the pace a test sets). Its methods
 * are sinon stubs, so a test can see the calls; a test may change a stored event as someone
 * editing the database files would.
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
  const subscriptions = new Set<FakeSubscription>();
  let loseNextAnswer = false;
  let pace: Pace | undefined;
  const record = (event: Stored) => {
    all.push(event);
    for (const subscription of subscriptions) subscription.offer(event);
  };

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
        record({
          // Kept as the JSON the server would store and parse back, not as the caller's objects.
          id: event.id, type: event.type, data: asJson(event.data), metadata: asJson(event.metadata ?? {}), streamId, revision, created: new Date(),
          position: { commit: nextPosition, prepare: nextPosition }, isJson: true, contentType: 'application/json',
        });
      }
      if (loseNextAnswer) {
        loseNextAnswer = false;
        throw new DeadlineExceededError(undefined, 'Deadline exceeded');
      }
      return { success: true, nextExpectedRevision: revision, position: { commit: nextPosition, prepare: nextPosition } };
    }),
    // Forwards from a revision includes it; backwards from one includes it and goes down; END forwards is past the last.
    readStream: sinon.spy((streamId: string, options: { fromRevision?: bigint | typeof START | typeof END; direction?: string; maxCount?: bigint } = {}) => {
      const stream = streamOf(streamId);
      if (stream.length === 0) {
        return {
          async *[Symbol.asyncIterator]() {
            yield* [];
            throw new StreamNotFoundError(undefined, streamId);
          },
        };
      }
      const from = options.fromRevision ?? START;
      if (options.direction === BACKWARDS) {
        const upTo = from === END ? stream.at(-1)!.revision : from === START ? 0n : from;
        return resolved(firstCount([...stream].reverse().filter((e) => e.revision <= upTo), options.maxCount));
      }
      if (from === END) return resolved([]);
      const fromRevision = from === START ? 0n : from;
      return resolved(firstCount(stream.filter((e) => e.revision >= fromRevision), options.maxCount));
    }),
    // Forwards from a position includes the event there; backwards from one starts before it.
    readAll: sinon.spy((options: { fromPosition?: typeof START | typeof END | Position; direction?: string; maxCount?: bigint | number } = {}) => {
      const from = options.fromPosition ?? START;
      if (options.direction === BACKWARDS) {
        if (from === START) return resolved([]);
        return resolved(firstCount([...all].reverse().filter((e) => from === END || before(e.position, from)), options.maxCount));
      }
      if (from === END) return resolved([]);
      return resolved(firstCount(all.filter((e) => from === START || !before(e.position, from)), options.maxCount));
    }),
    // From a position, the events after it.
    subscribeToAll: sinon.spy((options: { fromPosition?: typeof START | typeof END | Position; filter?: Filter } = {}, readableOptions: ReadableOptions = {}) => {
      const from = options.fromPosition ?? START;
      const backlog = from === START ? all : from === END ? [] : all.filter((e) => before(from, e.position));
      const subscription = new FakeSubscription(options.filter, backlog, readableOptions, (s) => subscriptions.delete(s), () => pace);
      subscriptions.add(subscription);
      return subscription;
    }),
    dispose: sinon.spy(async () => {
      for (const subscription of subscriptions) await subscription.unsubscribe();
    }),
  };
  return {
    client: client as unknown as EventStoreDBClient,
    spies: client,
    /** The events of the log that are no system events, in `$all` order. */
    events: () => all.filter((e) => !e.type.startsWith('$')),
    /** Writes a system event at the head of `$all`, as the server does with its statistics. */
    appendSystemEvent() {
      nextPosition += 137n;
      record({
        id: randomUUID(), type: '$statsCollected', data: {}, metadata: {}, streamId: '$stats-127.0.0.1:2113', revision: BigInt(streamOf('$stats-127.0.0.1:2113').length),
        created: new Date(), position: { commit: nextPosition, prepare: nextPosition }, isJson: true, contentType: 'application/json',
      });
    },
    /** Subscriptions deliver `burst` events at a time, `pauseMs` apart, as a server reading a long catch-up from disk. */
    deliverInBursts(burst: number, pauseMs: number) {
      pace = { burst, pauseMs };
    },
    /** The next append is written, but its answer is lost on the way back (the client's deadline passes). */
    loseNextAppendAnswer() {
      loseNextAnswer = true;
    },
    /** The connection to the server is lost: every live subscription fails with UnavailableError. */
    dropSubscriptions() {
      for (const subscription of [...subscriptions]) {
        subscriptions.delete(subscription);
        subscription.destroy(new UnavailableError(undefined, '14 UNAVAILABLE: Connection dropped'));
      }
    },
  };
}
