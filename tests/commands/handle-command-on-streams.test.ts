import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { CommandContext } from '../../src/commands/command-context.js';
import { handleCommandOnStreams } from '../../src/commands/handle-command.js';
import { DomainError } from '../../src/domain/domain-error.js';
import { createPostgresEventStore } from '../../src/infra/event-store/postgres-event-store.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

type Event = { type: 'Happened'; data: { n: number } };
const happened = (n: number): Event => ({ type: 'Happened', data: { n } });

describe('a command over several streams (handleCommandOnStreams)', () => {
  let database: TestDatabase;
  let ctx: CommandContext;
  beforeEach(async () => {
    database = await createTestDatabase();
    const eventStore = createPostgresEventStore(database.db, { projections: [], turns: database.isServer });
    ctx = { db: database.db, eventStore, now: () => Temporal.Instant.from('2027-01-04T08:00:00Z'), logger: {} } as unknown as CommandContext;
  });
  afterEach(() => database.destroy());

  const lengthOf = async (streamId: string) => (await ctx.eventStore.readStream(streamId)).length;
  const streamIds = async () => ['s-a', 's-b'];

  it('appends to every stream in one transaction, each at its own revision', async () => {
    await ctx.eventStore.appendToStream('s-b', [happened(0)], 'no_stream');
    const result = await handleCommandOnStreams<number, Event>(ctx, {
      needsOneTransaction: 'n/a',
      streamIds,
      load: async () => 1,
      decide: (n) => [
        { streamId: 's-a', events: [happened(n)] },
        { streamId: 's-b', events: [happened(n), happened(n + 1)] },
      ],
    });
    expect(result.events.map((e) => [e.streamId, e.streamRevision])).to.deep.equal([
      ['s-a', 0],
      ['s-b', 1],
      ['s-b', 2],
    ]);
  });

  it('rolls back every append when one stream moved meanwhile, and decides again on the fresh state', async () => {
    let loads = 0;
    const result = await handleCommandOnStreams<number, Event>(ctx, {
      needsOneTransaction: 'n/a',
      streamIds,
      async load() {
        loads++;
        // Another writer appends to s-b after the first attempt read the revisions.
        if (loads === 1) await ctx.eventStore.appendToStream('s-b', [happened(99)], 'no_stream');
        return loads;
      },
      decide: (n) => [
        { streamId: 's-a', events: [happened(n)] },
        { streamId: 's-b', events: [happened(n)] },
      ],
    });
    expect(loads).to.equal(2);
    expect(result.events.map((e) => e.data)).to.deep.equal([{ n: 2 }, { n: 2 }]);
    expect(await lengthOf('s-a')).to.equal(1);
    expect(await lengthOf('s-b')).to.equal(2);
  });

  it('stores nothing when a constraint in the transaction refuses, answering the verdict', async () => {
    const refused = await handleCommandOnStreams<number, Event>(ctx, {
      needsOneTransaction: 'n/a',
      streamIds,
      load: async () => 1,
      decide: () => [
        { streamId: 's-a', events: [happened(1)] },
        { streamId: 's-b', events: [happened(1)] },
      ],
      inTransactionFor: () => async () => {
        throw Object.assign(new Error('overlap'), { code: '23P01' });
      },
      onConstraintViolation: (error) => (error.code === '23P01' ? new DomainError('booking_conflict', 'refused in the transaction') : undefined),
    }).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'booking_conflict' });
    expect(await lengthOf('s-a')).to.equal(0);
    expect(await lengthOf('s-b')).to.equal(0);
  });

  it('answers 503 with its reason on a store without transactions over several streams', async () => {
    const store = { ...ctx.eventStore, appendInOneTransaction: undefined };
    const refused = await handleCommandOnStreams<number, Event>({ ...ctx, eventStore: store }, { needsOneTransaction: 'bundles need the PostgreSQL event store', streamIds, load: async () => 1, decide: () => [] }).catch(
      (error: unknown) => error,
    );
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'dependency_unavailable', message: 'bundles need the PostgreSQL event store' });
  });
});
