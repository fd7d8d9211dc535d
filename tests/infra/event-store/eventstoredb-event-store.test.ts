import { EventStoreDBClient, jsonEvent, NO_STREAM, START, StreamNotFoundError, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import { expect } from 'chai';
import sinon from 'sinon';
import { createEventStoreDbEventStore } from '../../../src/infra/event-store/eventstoredb-event-store.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { fakeEventStoreDb, type FakeEventStoreDb } from '../../support/fake-eventstoredb.js';
import { eventStoreContract } from './event-store-contract.js';

const connectionString = process.env.EVENTSTORE_CONNECTION_STRING;

if (connectionString) {
  eventStoreContract('EventStoreDB', async () => {
    const client = EventStoreDBClient.connectionString(connectionString);
    return { store: createEventStoreDbEventStore(client), concurrentConnections: false, close: () => client.dispose() };
  });
} else {
  describe('event store contract: EventStoreDB', () => {
    it('runs against a real server when EVENTSTORE_CONNECTION_STRING is set', function () {
      this.skip();
    });
  });
}

eventStoreContract('EventStoreDB (fake client)', async () => ({
  store: createEventStoreDbEventStore(fakeEventStoreDb().client),
  concurrentConnections: false,
  close: async () => undefined,
}));

/** A read of a stream that does not exist. */
const noStream = () => ({
  async *[Symbol.asyncIterator]() {
    yield* [];
    throw new StreamNotFoundError(undefined, 's');
  },
});

describe('EventStoreDB adapter mapping (stubbed client)', () => {
  it('maps expected revisions and a version mismatch to the typed concurrency error', async () => {
    const appendToStream = sinon.stub().rejects(new WrongExpectedVersionError(undefined, { streamName: 's', expected: 3n, current: 5n }));
    const store = createEventStoreDbEventStore({ appendToStream, readStream: noStream } as unknown as EventStoreDBClient);
    const error = await store.appendToStream('s', [{ type: 'T', data: {} }], 3).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(WrongExpectedRevisionError);
    expect((error as WrongExpectedRevisionError).actual).to.equal(5);
    expect(appendToStream.firstCall.args[2]).to.deep.equal({ expectedRevision: 3n });
    await store.appendToStream('s', [{ type: 'T', data: {} }], 'no_stream').catch(() => undefined);
    expect(appendToStream.secondCall.args[2]).to.deep.equal({ expectedRevision: NO_STREAM });
  });

  it('does not turn other failures into concurrency errors', async () => {
    const store = createEventStoreDbEventStore({ appendToStream: sinon.stub().rejects(new Error('connection lost')), readStream: noStream } as unknown as EventStoreDBClient);
    const error = await store.appendToStream('s', [{ type: 'T', data: {} }], 0).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error).and.not.instanceOf(WrongExpectedRevisionError);
  });

  it('refuses work in a PostgreSQL transaction (appendingInPostgresTransactions does it) and appends nothing', async () => {
    const appendToStream = sinon.stub();
    const store = createEventStoreDbEventStore({ appendToStream } as unknown as EventStoreDBClient);
    const error = await store.appendToStream('s', [{ type: 'T', data: {} }], 'any', { inTransaction: async () => undefined }).catch((e: unknown) => e);
    expect((error as Error).message).to.include('appendingInPostgresTransactions');
    expect(appendToStream.called).to.equal(false);
  });

  it('turns an unreachable server into dependency_unavailable, reading and appending', async () => {
    const unreachable = () => new UnavailableError(new Error('14 UNAVAILABLE: No connection established') as never);
    const readStream = () => ({
      async *[Symbol.asyncIterator]() {
        yield* [];
        throw unreachable();
      },
    });
    const appendToStream = sinon.stub().rejects(unreachable());
    const store = createEventStoreDbEventStore({ readStream, appendToStream } as unknown as EventStoreDBClient);
    for (const attempt of [store.readStream('s'), store.appendToStream('s', [{ type: 'T', data: {} }], 'any')]) {
      const error = await attempt.catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'dependency_unavailable' });
    }
  });

  it('reads a missing stream as empty and its revision as null', async () => {
    const store = createEventStoreDbEventStore({ readStream: noStream } as unknown as EventStoreDBClient);
    expect(await store.readStream('s')).to.deep.equal([]);
    expect(await store.readStreamRevision('s')).to.equal(null);
  });

  describe('$all through filtered subscriptions', () => {
    const start = { transactionId: '0', globalPosition: 0 };
    const positionOf = (e: { position: { commit: bigint; prepare: bigint } }) => ({ transactionId: String(e.position.commit), globalPosition: Number(e.position.prepare) });
    const appendTo = (esdb: FakeEventStoreDb, streamId: string, count: number) =>
      esdb.client.appendToStream(streamId, Array.from({ length: count }, (_, i) => jsonEvent({ type: 'Counted', data: { i } })));

    it('leaves system events out on the server, and a follower continues on its subscription', async () => {
      const esdb = fakeEventStoreDb();
      esdb.appendSystemEvent();
      await appendTo(esdb, 'a', 3);
      esdb.appendSystemEvent();
      const store = createEventStoreDbEventStore(esdb.client);
      const first = await store.readAll({ after: start, maxCount: 2, follower: 'f' });
      expect(first.map((e) => [e.streamId, e.streamRevision])).to.deep.equal([['a', 0], ['a', 1]]);
      expect(esdb.spies.subscribeToAll.firstCall.args[0]).to.deep.include({ fromPosition: START });
      expect(esdb.spies.subscribeToAll.firstCall.args[0]?.filter).to.include({ filterOn: 'eventType', regex: '^[^$].*' });
      await appendTo(esdb, 'b', 1);
      const rest = await store.readAll({ after: positionOf(esdb.events()[1]!), maxCount: 10, follower: 'f' });
      expect(rest.map((e) => [e.streamId, e.streamRevision])).to.deep.equal([['a', 2], ['b', 0]]);
      expect(esdb.spies.subscribeToAll.callCount).to.equal(1);
      expect(await store.readAll({ after: positionOf(esdb.events()[3]!), maxCount: 10, follower: 'f' })).to.deep.equal([]);
    });

    it('subscribes again after the position asked when it is not where the subscription stands', async () => {
      const esdb = fakeEventStoreDb();
      await appendTo(esdb, 'a', 4);
      const store = createEventStoreDbEventStore(esdb.client);
      await store.readAll({ after: start, maxCount: 3, follower: 'f' });
      // The batch did not commit: the checkpoint is still after the first event.
      const again = await store.readAll({ after: positionOf(esdb.events()[0]!), maxCount: 10, follower: 'f' });
      expect(again.map((e) => e.streamRevision)).to.deep.equal([1, 2, 3]);
      expect(esdb.spies.subscribeToAll.secondCall.args[0]?.fromPosition).to.deep.equal(esdb.events()[0]!.position);
    });

    it('fails a read whose subscription is lost as unavailable, and the next read subscribes again from its position', async () => {
      const esdb = fakeEventStoreDb();
      await appendTo(esdb, 'a', 2);
      const store = createEventStoreDbEventStore(esdb.client);
      await store.readAll({ after: start, maxCount: 10, follower: 'f' });
      const last = positionOf(esdb.events()[1]!);
      const waiting = store.readAll({ after: last, maxCount: 10, follower: 'f' });
      esdb.dropSubscriptions();
      const error = await waiting.catch((e: unknown) => e);
      expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'dependency_unavailable' });
      await appendTo(esdb, 'b', 1);
      const resumed = await store.readAll({ after: last, maxCount: 10, follower: 'f' });
      expect(resumed.map((e) => e.streamId)).to.deep.equal(['b']);
      expect(esdb.spies.subscribeToAll.lastCall.args[0]?.fromPosition).to.deep.equal(esdb.events()[1]!.position);
    });

    it('tells the head of the log past the system events there, null when it holds none other', async () => {
      const esdb = fakeEventStoreDb();
      const store = createEventStoreDbEventStore(esdb.client);
      expect(await store.readLogHead!()).to.equal(null);
      await appendTo(esdb, 'a', 1);
      for (let i = 0; i < 70; i++) esdb.appendSystemEvent();
      expect(await store.readLogHead!()).to.deep.equal(positionOf(esdb.events()[0]!));
    });
  });
});
