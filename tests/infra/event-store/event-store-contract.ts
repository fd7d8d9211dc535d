import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { isAtOrAfter, logStart, positionOf, type EventStore, type LogPosition, type RecordedEvent } from '../../../src/infra/event-store/event-store.js';
import { chainHash, genesisHash } from '../../../src/infra/event-store/hash-chain.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';

export type EventStoreFixture = { store: EventStore; concurrentConnections: boolean; close(): Promise<void> };

const stream = () => `test-${randomUUID()}`;
const event = (n: number) => ({ type: 'Counted', data: { n } });

async function readAllAfter(store: EventStore, after: LogPosition): Promise<RecordedEvent[]> {
  const all: RecordedEvent[] = [];
  let position = after;
  for (;;) {
    const batch = await store.readAll({ after: position, maxCount: 100 });
    if (batch.length === 0) return all;
    all.push(...batch);
    const last = batch[batch.length - 1]!;
    position = { transactionId: last.transactionId, globalPosition: last.globalPosition };
  }
}

/** The behaviour every adapter of the event store port must show. */
export function eventStoreContract(name: string, open: () => Promise<EventStoreFixture>): void {
  describe(`event store contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    before(async () => {
      fixture = await open();
    });
    after(() => fixture.close());

    describe('appending with an expected revision', () => {
      it('creates a stream with no_stream and numbers events from 0', async () => {
        const id = stream();
        const result = await fixture.store.appendToStream(id, [event(1), event(2)], 'no_stream');
        expect(result.nextExpectedRevision).to.equal(1);
        expect(result.events.map((e) => e.streamRevision)).to.deep.equal([0, 1]);
        expect(await fixture.store.readStreamRevision(id)).to.equal(1);
      });

      it('refuses no_stream on an existing stream with a typed error', async () => {
        const id = stream();
        await fixture.store.appendToStream(id, [event(1)], 'no_stream');
        const error = await fixture.store.appendToStream(id, [event(2)], 'no_stream').catch((e: unknown) => e);
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect((error as WrongExpectedRevisionError).actual).to.equal(0);
      });

      it('accepts the current revision and refuses a stale one', async () => {
        const id = stream();
        await fixture.store.appendToStream(id, [event(1)], 'no_stream');
        await fixture.store.appendToStream(id, [event(2)], 0);
        const error = await fixture.store.appendToStream(id, [event(3)], 0).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect((await fixture.store.readStream(id)).map((e) => e.data.n)).to.deep.equal([1, 2]);
      });

      it('refuses a numeric revision on a stream that does not exist', async () => {
        const error = await fixture.store.appendToStream(stream(), [event(1)], 0).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(WrongExpectedRevisionError);
        expect((error as WrongExpectedRevisionError).actual).to.equal(null);
      });

      it('stream_exists needs the stream, any takes whatever is there', async () => {
        const id = stream();
        expect(await fixture.store.appendToStream(id, [event(1)], 'stream_exists').catch((e: unknown) => e)).to.be.instanceOf(
          WrongExpectedRevisionError,
        );
        await fixture.store.appendToStream(id, [event(1)], 'any');
        await fixture.store.appendToStream(id, [event(2)], 'stream_exists');
        await fixture.store.appendToStream(id, [event(3)], 'any');
        expect((await fixture.store.readStream(id)).map((e) => e.streamRevision)).to.deep.equal([0, 1, 2]);
      });

      it('50 parallel appends with one expected revision: exactly one wins, nothing lost or duplicated', async () => {
        const id = stream();
        await fixture.store.appendToStream(id, [event(0)], 'no_stream');
        const results = await Promise.allSettled(
          Array.from({ length: 50 }, (_, i) => fixture.store.appendToStream(id, [event(i + 1), event(i + 1)], 0)),
        );
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).to.have.length(1);
        expect(lost.every((r) => r.reason instanceof WrongExpectedRevisionError)).to.equal(true);
        const events = await fixture.store.readStream(id);
        expect(events.map((e) => e.streamRevision)).to.deep.equal([0, 1, 2]);
        expect(new Set(events.map((e) => e.id)).size).to.equal(3);
        expect(events[1]!.data.n).to.equal(events[2]!.data.n);
      });

      it('a failure that is not a version mismatch is not a concurrency error and stores nothing', async () => {
        const id = stream();
        const error = await fixture.store
          .appendToStream(id, [event(1)], 'no_stream', {
            inTransaction: async () => {
              throw new Error('projection failed');
            },
          })
          .catch((e: unknown) => e);
        expect(error).to.be.instanceOf(Error).and.not.instanceOf(WrongExpectedRevisionError);
        expect(await fixture.store.readStreamRevision(id)).to.equal(null);
        expect(await fixture.store.readStream(id)).to.deep.equal([]);
      });
    });

    describe('the hash chain of each stream (contract §13)', () => {
      /** The links a stream's events must carry, recomputed from their types, data and revisions. */
      const linksOf = (events: RecordedEvent[]) => {
        let head = genesisHash;
        return events.map((e) => (head = chainHash(head, { type: e.type, data: e.data, revision: e.streamRevision })));
      };

      it('links each appended event to the one before, whatever the expectation', async () => {
        const id = stream();
        const appended = [
          ...(await fixture.store.appendToStream(id, [event(1), event(2)], 'no_stream')).events,
          ...(await fixture.store.appendToStream(id, [event(3)], 1)).events,
          ...(await fixture.store.appendToStream(id, [event(4)], 'any')).events,
          ...(await fixture.store.appendToStream(id, [event(5), event(6)], 'stream_exists')).events,
        ];
        const read = await fixture.store.readStream(id);
        expect(read.map((e) => e.hash)).to.deep.equal(linksOf(read));
        expect(appended.map((e) => e.hash)).to.deep.equal(linksOf(read));
      });

      it('keeps the chain whole under parallel appends with any', async () => {
        const id = stream();
        await Promise.all(Array.from({ length: 8 }, (_, i) => fixture.store.appendToStream(id, [event(i)], 'any')));
        const read = await fixture.store.readStream(id);
        expect(read.map((e) => e.streamRevision)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7]);
        expect(read.map((e) => e.hash)).to.deep.equal(linksOf(read));
      });
    });

    describe('reading', () => {
      it('reads a stream from a revision, bounded by maxCount', async () => {
        const id = stream();
        await fixture.store.appendToStream(id, [1, 2, 3, 4].map(event), 'no_stream');
        const page = await fixture.store.readStream(id, { fromRevision: 1, maxCount: 2 });
        expect(page.map((e) => e.data.n)).to.deep.equal([2, 3]);
      });

      it('reads the last event of a stream with its place in the global log, null for a missing stream', async () => {
        const id = stream();
        expect(await fixture.store.readLastEvent(id)).to.equal(null);
        const { events } = await fixture.store.appendToStream(id, [1, 2].map(event), 'no_stream');
        const last = await fixture.store.readLastEvent(id);
        expect(last).to.include({ streamId: id, streamRevision: 1, id: events[1]!.id });
        const seen = (await readAllAfter(fixture.store, logStart)).find((e) => e.id === last!.id);
        expect(seen && positionOf(seen)).to.deep.equal(positionOf(last!));
        // A command waits until the projections pass the position its append answered: $all must reach it.
        expect(isAtOrAfter(positionOf(last!), positionOf(events[1]!))).to.equal(true);
      });

      it('reads the global log in commit order, each event once', async () => {
        const start = (await readAllAfter(fixture.store, logStart)).at(-1);
        const from = start ? { transactionId: start.transactionId, globalPosition: start.globalPosition } : logStart;
        const a = stream();
        const b = stream();
        await fixture.store.appendToStream(a, [event(1)], 'no_stream');
        await fixture.store.appendToStream(b, [event(2)], 'no_stream');
        await fixture.store.appendToStream(a, [event(3)], 0);
        const seen = (await readAllAfter(fixture.store, from)).filter((e) => e.streamId === a || e.streamId === b);
        expect(seen.map((e) => e.data.n)).to.deep.equal([1, 2, 3]);
      });

      it('never skips an event that a slower transaction commits after a faster one', async function () {
        if (!fixture.concurrentConnections) this.skip();
        const tail = (await readAllAfter(fixture.store, logStart)).at(-1);
        let position: LogPosition = tail ? { transactionId: tail.transactionId, globalPosition: tail.globalPosition } : logStart;
        const slow = stream();
        const fast = stream();
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let inserted!: () => void;
        const slowInserted = new Promise<void>((resolve) => (inserted = resolve));
        const slowAppend = fixture.store.appendToStream(slow, [event(1)], 'no_stream', {
          inTransaction: async () => {
            inserted();
            await held;
          },
        });
        await slowInserted;
        await fixture.store.appendToStream(fast, [event(2)], 'no_stream');

        const seen: RecordedEvent[] = [];
        const follow = async () => {
          for (const e of await readAllAfter(fixture.store, position)) {
            seen.push(e);
            position = { transactionId: e.transactionId, globalPosition: e.globalPosition };
          }
        };
        await follow();
        release();
        await slowAppend;
        await follow();
        const ours = seen.filter((e) => e.streamId === slow || e.streamId === fast).map((e) => e.streamId);
        expect(ours).to.deep.equal([slow, fast]);
      });
    });
  });
}
