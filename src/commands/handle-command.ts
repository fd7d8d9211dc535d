import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import { DomainError } from '../domain/domain-error.js';
import type { Executor } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import type { AppendInTransaction, EventOf, EventStore, InTransaction, RecordedEvent, StreamAppend, StreamTurn } from '../infra/event-store/event-store.js';
import { lockStreamRows } from '../infra/event-store/lock-stream-rows.js';
import { WrongExpectedRevisionError } from '../infra/event-store/wrong-expected-revision-error.js';
import type { CommandContext } from './command-context.js';
import { reportStreamFull, withStreamLock } from './with-stream-lock.js';

const maxAttempts = 25;

/** A failure inside the append that is no version conflict: usually a constraint of a read model. */
export type AppendFailure = { code?: string; constraint?: string };

/**
 * Reads the state the decision needs from the read models (kept current inside each append);
 * or, in one statement, the stream's revision with it (one round trip less, one snapshot).
 */
type Load<State> =
  | { load: (db: Executor) => Promise<State> }
  | { loadWithRevision: (db: Executor) => Promise<{ revision: number | null; state: State }> };

export type CommandSpec<State, Event extends EventOf> = Load<State> & {
  /** Pure decision: the events to append, none when nothing changes; throws DomainError to refuse. */
  decide: (state: State) => Event[];
  /**
   * A constraint of the read model failing inside the append (e.g. the overlap exclusion): a
   * DomainError answers the client, 'retry' reloads and decides again; anything else propagates.
   */
  onConstraintViolation?: (error: AppendFailure) => DomainError | 'retry' | undefined;
  /** Checks and writes beside the events, in the append's transaction (see InTransaction). */
  inTransaction?: InTransaction<Transaction<DB>>;
  /**
   * Work in the append's transaction that only some states need (a quota's lock), given the events
   * decided: undefined keeps the append as cheap as one without work. Used instead of
   * `inTransaction` when given.
   */
  inTransactionFor?: (state: State, events: readonly Event[]) => InTransaction<Transaction<DB>> | undefined;
};

export type CommandResult<State, Event extends EventOf> = { state: State; events: RecordedEvent<Event>[] };

/** The state alone; read after the revision, it is at least that revision's. */
async function loadState<State>(spec: Load<State>, db: Executor): Promise<State> {
  return 'load' in spec ? spec.load(db) : (await spec.loadWithRevision(db)).state;
}

/** The work in the append's transaction that this state and these events need. */
const inTransactionOf = <State, Event extends EventOf>(spec: CommandSpec<State, Event>, state: State, events: readonly Event[]) =>
  spec.inTransactionFor ? spec.inTransactionFor(state, events) : spec.inTransaction;

/** One optimistic attempt: the revision and state read on the pool, the append expecting that revision. */
async function attemptOptimistically<State, Event extends EventOf>(ctx: CommandContext, streamId: string, spec: CommandSpec<State, Event>): Promise<CommandResult<State, Event>> {
  const { revision, state } =
    'loadWithRevision' in spec && !ctx.eventStore.projectsAfterCommit
      ? await spec.loadWithRevision(ctx.db)
      : { revision: await ctx.eventStore.readStreamRevision(streamId), state: await loadState(spec, ctx.db) };
  const events = spec.decide(state);
  if (events.length === 0) return { state, events: [] };
  const result = await ctx.eventStore.appendToStream(streamId, events, revision ?? 'no_stream', { inTransaction: inTransactionOf(spec, state, events) });
  // The store hands back what it was given, recorded.
  return { state, events: result.events as RecordedEvent<Event>[] };
}

/** One attempt in the stream's turn (EventStore.inTurn): the state read and the append made while no other writer can append. */
function attemptInTurn<State, Event extends EventOf>(
  inTurn: NonNullable<EventStore<Transaction<DB>>['inTurn']>,
  streamId: string,
  spec: CommandSpec<State, Event>,
): Promise<CommandResult<State, Event>> {
  return inTurn(streamId, async (turn: StreamTurn<Transaction<DB>>) => {
    const state = await loadState(spec, turn.trx);
    const events = spec.decide(state);
    if (events.length === 0) return { state, events: [] };
    const result = await turn.append(events, { inTransaction: inTransactionOf(spec, state, events) });
    return { state, events: result.events as RecordedEvent<Event>[] };
  });
}

/**
 * A command whose target has no stream (an unregistered resource, an unknown booking): its state is
 * loaded as any other's (the load finds the target absent) and decided on, so the decision refuses
 * in the contract's order or changes nothing; there is no stream to append to.
 */
async function decideWithoutStream<State, Event extends EventOf>(ctx: CommandContext, spec: CommandSpec<State, Event>): Promise<CommandResult<State, Event>> {
  const state = await loadState(spec, ctx.db);
  if (spec.decide(state).length > 0) throw new Error('a decision on a target without a stream produced events');
  return { state, events: [] };
}

/** The events a decision over several streams appends to one of them. */
export type StreamEvents<Event extends EventOf> = { streamId: string; events: Event[] };

/**
 * A command over several streams (a blackout and the bookings it cancels, a bundle's bookings):
 * one decision, its appends to every stream in one transaction, each expecting its own revision.
 */
export type StreamsCommandSpec<State, Event extends EventOf> = StreamsLoad<State> & {
  /** The streams the decision stands on (read first, before the state): every stream it may append to. */
  streamIds: (db: Executor) => Promise<readonly string[]>;
  /** Pure decision: the events per stream, none when nothing changes; throws DomainError to refuse. */
  decide: (state: State) => StreamEvents<Event>[];
  /** As CommandSpec's. */
  onConstraintViolation?: (error: AppendFailure) => DomainError | 'retry' | undefined;
  /**
   * Checks and locks in the appends' transaction, before them, that this state needs; throwing
   * rolls back every append. Undefined: the appends need no transaction of their own, and go in
   * one statement where the store offers it (appendToStreams).
   */
  inTransactionFor?: (state: State) => ((trx: Transaction<DB>) => Promise<void>) | undefined;
  /** Why a store without transactions over several streams (EventStoreDB) refuses the command: 503. */
  needsOneTransaction: string;
};

/**
 * Reads the state the decision needs; or, in one statement, with the revisions of the streams
 * (each stream's revision by its id; one snapshot, one round trip instead of one per stream more).
 */
type StreamsLoad<State> =
  | { load: (db: Executor) => Promise<State> }
  | { loadWithRevisions: (db: Executor) => Promise<{ revisions: ReadonlyMap<string, number | null>; state: State }> };

/** The state alone. */
async function loadStreamsState<State>(spec: StreamsLoad<State>, db: Executor): Promise<State> {
  return 'load' in spec ? spec.load(db) : (await spec.loadWithRevisions(db)).state;
}

/** The streams' revisions, then the state, read on the pool; or both in one statement. */
async function revisionsAndState<State>(ctx: CommandContext, spec: StreamsLoad<State>, streamIds: readonly string[]) {
  if ('loadWithRevisions' in spec && !ctx.eventStore.projectsAfterCommit) return spec.loadWithRevisions(ctx.db);
  const revisions = ctx.eventStore.readStreamRevisions
    ? await ctx.eventStore.readStreamRevisions(streamIds)
    : new Map(await Promise.all(streamIds.map(async (id) => [id, await ctx.eventStore.readStreamRevision(id)] as const)));
  return { revisions, state: await loadStreamsState(spec, ctx.db) };
}

export type StreamsCommandResult<State> = { state: State; events: RecordedEvent[] };

/** The decision's appends, each expecting the revision its stream had when the decision's state was read. */
async function appendDecided<State, Event extends EventOf>(
  trx: Transaction<DB>,
  append: AppendInTransaction,
  spec: StreamsCommandSpec<State, Event>,
  state: State,
  decided: readonly StreamEvents<Event>[],
  revisions: ReadonlyMap<string, number | null>,
): Promise<RecordedEvent[]> {
  await spec.inTransactionFor?.(state)?.(trx);
  const recorded: RecordedEvent[] = [];
  for (const { streamId, events, expectedRevision } of streamAppends(decided, revisions)) recorded.push(...(await append(streamId, events, expectedRevision)));
  return recorded;
}

/** The decision's appends in stream id order (the order every writer of several streams claims them in), each expecting the revision read. */
function streamAppends<Event extends EventOf>(decided: readonly StreamEvents<Event>[], revisions: ReadonlyMap<string, number | null>): StreamAppend[] {
  return [...decided]
    .sort((a, b) => (a.streamId < b.streamId ? -1 : 1))
    .map(({ streamId, events }) => {
      if (!revisions.has(streamId)) throw new Error(`a decision appended to ${streamId}, which it did not read`);
      return { streamId, events, expectedRevision: revisions.get(streamId) ?? 'no_stream' };
    });
}

const decidedEvents = <Event extends EventOf>(decided: readonly StreamEvents<Event>[]) => decided.filter((d) => d.events.length > 0);

/** One optimistic attempt over several streams: their revisions and the state read on the pool; the appends in one statement, or one transaction where they need one. */
async function attemptStreamsOptimistically<State, Event extends EventOf>(
  ctx: CommandContext,
  appendInOneTransaction: NonNullable<EventStore<Transaction<DB>>['appendInOneTransaction']>,
  spec: StreamsCommandSpec<State, Event>,
): Promise<StreamsCommandResult<State>> {
  const { revisions, state } = await revisionsAndState(ctx, spec, await spec.streamIds(ctx.db));
  const decided = decidedEvents(spec.decide(state));
  if (decided.length === 0) return { state, events: [] };
  const appendToStreams = ctx.eventStore.projectsAfterCommit ? undefined : ctx.eventStore.appendToStreams?.bind(ctx.eventStore);
  if (appendToStreams && !spec.inTransactionFor?.(state)) return { state, events: await appendToStreams(streamAppends(decided, revisions)) };
  const events = await appendInOneTransaction((trx, append) => appendDecided(trx, append, spec, state, decided, revisions));
  return { state, events };
}

/** One attempt in the streams' turn: their rows locked in id order, the state read and the appends made in that transaction. */
function attemptStreamsInTurn<State, Event extends EventOf>(
  appendInOneTransaction: NonNullable<EventStore<Transaction<DB>>['appendInOneTransaction']>,
  spec: StreamsCommandSpec<State, Event>,
): Promise<StreamsCommandResult<State>> {
  return appendInOneTransaction(async (trx, append) => {
    const streamIds = await spec.streamIds(trx);
    const locked = await lockStreamRows(trx, streamIds);
    const revisions = new Map(streamIds.map((id) => [id, locked.get(id) ?? null]));
    const state = await loadStreamsState(spec, trx);
    const decided = decidedEvents(spec.decide(state));
    if (decided.length === 0) return { state, events: [] };
    return { state, events: await appendDecided(trx, append, spec, state, decided, revisions) };
  });
}

/**
 * A deadlock PostgreSQL broke by rolling this transaction back: writers over several streams (a
 * bundle, a blackout) and single writers take rows and advisory locks in orders that may cross.
 * Nothing was written; deciding again is safe.
 */
const isDeadlock = (error: unknown) => (error as AppendFailure | null)?.code === '40P01';

/**
 * Runs attempts until one stands: an attempt refused by a moved revision or a deadlock, or by a constraint the
 * command's verdict calls 'retry', is made again (in turn where the store offers turns, else after
 * a random pause); a DomainError verdict answers the client; after maxAttempts, 503.
 */
async function untilOneStands<T>(
  what: string,
  onConstraintViolation: ((error: AppendFailure) => DomainError | 'retry' | undefined) | undefined,
  turns: boolean,
  attempt: (inTurn: boolean) => Promise<T>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(n > 1 && turns);
    } catch (error) {
      const verdict = error instanceof WrongExpectedRevisionError || isDeadlock(error) ? 'retry' : onConstraintViolation?.(error as AppendFailure);
      if (verdict instanceof DomainError) throw verdict;
      if (verdict !== 'retry') throw error;
      if (n >= maxAttempts) throw new DomainError('dependency_unavailable', `too many concurrent changes to ${what}; try again`);
      // A turn waits in PostgreSQL's queue: no pause before it.
      if (!turns) await sleep(Math.random() * Math.min(100, 2 ** n));
    }
  }
}

/**
 * The one command-handling loop of every area: 1. read the stream revision, 2. load the state
 * (or both in one statement), 3. decide, 4. append expecting that revision (the store runs its projections in the append's
 * transaction). The revision is read before the state, so anything committed in between makes the
 * append fail and the decision is taken again on fresh state. When the read models follow the log
 * (PROJECTIONS=async) the revision is always read first: the store answers it once they have
 * passed it, so a decision never stands on a read model behind its stream.
 *
 * The first attempt is optimistic (the common, uncontended case: two round trips). Where the store
 * offers turns (PostgreSQL with inline read models), every later attempt takes the stream's turn:
 * writers that found the stream contended queue on its row in PostgreSQL, across processes and
 * nodes, and each decides on what the previous one committed, so a valid write converges instead
 * of losing race after race until its retries run out (contract §19). Elsewhere (EventStoreDB,
 * PROJECTIONS=async) the retries stay optimistic, with a random pause. A null stream is a target
 * that has none: steps 2 and 3 alone (decideWithoutStream). Over several streams, see
 * handleCommandOnStreams: the same loop (untilOneStands).
 */
export async function handleCommand<State, Event extends EventOf>(
  ctx: CommandContext,
  streamId: string | null,
  spec: CommandSpec<State, Event>,
): Promise<CommandResult<State, Event>> {
  if (streamId === null) return decideWithoutStream(ctx, spec);
  const inTurn = ctx.eventStore.projectsAfterCommit ? undefined : ctx.eventStore.inTurn?.bind(ctx.eventStore);
  const run = async () => {
    try {
      return await untilOneStands(streamId, spec.onConstraintViolation, inTurn !== undefined, (turn) =>
        turn && inTurn ? attemptInTurn(inTurn, streamId, spec) : attemptOptimistically(ctx, streamId, spec),
      );
    } catch (error) {
      if (error instanceof DomainError && error.code === 'booking_conflict') reportStreamFull(streamId);
      throw error;
    }
  };
  return withStreamLock(streamId, run, inTurn && (() => refuseOnCommittedState(ctx, spec)));
}

/**
 * While a command waits for its stream's turn and the stream was just found full: its decision on
 * the state committed now (read models written in the appends' transactions, so the state is one
 * the stream had). A refusal stands as it would in turn, since the state is one the stream had
 * while the request was in flight (linearisable at that read); the command leaves its queue with it
 * instead of waiting for its turn to read the same answer again. A decision that would append stays in line, to be taken
 * again in its turn. A burst of a thousand creates on a pool of fifty is then fifty turns and
 * parallel reads, not a thousand turns.
 */
async function refuseOnCommittedState<State, Event extends EventOf>(ctx: CommandContext, spec: CommandSpec<State, Event>): Promise<void> {
  try {
    spec.decide(await loadState(spec, ctx.db));
  } catch (error) {
    // Anything but a refusal (the database unreachable, say) is its turn's to meet.
    if (error instanceof DomainError) throw error;
  }
}

/**
 * The loop over several streams: 1. read each stream's revision, 2. load the state, 3. decide once,
 * 4. append to every stream in one transaction, each expecting its revision; any mismatch (or a
 * constraint whose verdict is 'retry') rolls back every append and the decision is taken again,
 * in turn (the streams' rows locked in id order) where the store offers turns. A store without
 * transactions over several streams (EventStoreDB) refuses with 503 (`needsOneTransaction`).
 */
export async function handleCommandOnStreams<State, Event extends EventOf>(ctx: CommandContext, spec: StreamsCommandSpec<State, Event>): Promise<StreamsCommandResult<State>> {
  const appendInOneTransaction = ctx.eventStore.appendInOneTransaction?.bind(ctx.eventStore);
  if (!appendInOneTransaction) throw new DomainError('dependency_unavailable', spec.needsOneTransaction);
  const turns = !ctx.eventStore.projectsAfterCommit && ctx.eventStore.inTurn !== undefined;
  return untilOneStands('these streams', spec.onConstraintViolation, turns, (turn) =>
    turn ? attemptStreamsInTurn(appendInOneTransaction, spec) : attemptStreamsOptimistically(ctx, appendInOneTransaction, spec),
  );
}
