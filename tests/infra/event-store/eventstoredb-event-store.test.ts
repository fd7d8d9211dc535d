import { randomUUID } from 'node:crypto';
import { EventStoreDBClient, NO_STREAM, StreamNotFoundError, UnavailableError, WrongExpectedVersionError } from '@eventstore/db-client';
import { expect } from 'chai';
import sinon from 'sinon';
import { createEventStoreDbEventStore } from '../../../src/infra/event-store/eventstoredb-event-store.js';
import { WrongExpectedRevisionError } from '../../../src/infra/event-store/wrong-expected-revision-error.js';
import { DomainError } from '../../../src/domain/domain-error.js';
import { fakeEventStoreDb } from '../../support/fake-eventstoredb.js';
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

async function* resolved(events: { type: string; commit: bigint; prepare?: bigint; revision?: bigint }[]) {
  for (const e of events) {
    yield {
      event: {
        id: randomUUID(),
        type: e.type,
        data: {},
        metadata: {},
        streamId: 's',
        revision: e.revision ?? 0n,
        created: new Date(),
        position: { commit: e.commit, prepare: e.prepare ?? e.commit },
        isJson: true,
        contentType: 'application/json',
      },
    };
  }
}

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

  it('refuses work in the append’s transaction (record rules) as unavailable, naming the setting, and appends nothing', async () => {
    const appendToStream = sinon.stub();
    const store = createEventStoreDbEventStore({ appendToStream } as unknown as EventStoreDBClient);
    const error = await store.appendToStream('s', [{ type: 'T', data: {} }], 'any', { inTransaction: async () => undefined }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(DomainError).and.to.include({ code: 'dependency_unavailable' });
    expect((error as Error).message).to.include('EVENT_STORE=postgres');
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

  it('reads $all past pages that hold only system events, never answering them', async () => {
    const pages = [
      [{ type: '$metadata', commit: 10n }, { type: '$statsCollected', commit: 20n }, { type: '$settings', commit: 30n }],
      [{ type: '$settings', commit: 30n }, { type: 'BookingCreated', commit: 40n }],
    ];
    const readAll = sinon.stub().callsFake(() => resolved(pages.shift() ?? []));
    const store = createEventStoreDbEventStore({ readAll } as unknown as EventStoreDBClient);
    const events = await store.readAll({ after: { transactionId: '0', globalPosition: 0 }, maxCount: 2 });
    expect(events.map((e) => [e.type, e.transactionId])).to.deep.equal([['BookingCreated', '40']]);
    expect(readAll.secondCall.args[0].fromPosition).to.deep.equal({ commit: 30n, prepare: 30n });
  });
});
