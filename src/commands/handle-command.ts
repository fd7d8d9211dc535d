import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import { DomainError } from '../domain/domain-error.js';
import type { Executor } from '../infra/db/database.js';
import type { DB } from '../infra/db/schema.js';
import type { EventOf, EventStore, InTransaction, RecordedEvent, StreamTurn } from '../infra/event-store/event-store.js';
import { WrongExpectedRevisionError } from '../infra/event-store/wrong-expected-revision-error.js';
import type { CommandContext } from './command-context.js';
import { withStreamLock } from './with-stream-lock.js';

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
 * that has none: steps 2 and 3 alone (decideWithoutStream).
 */
export async function handleCommand<State, Event extends EventOf>(
  ctx: CommandContext,
  streamId: string | null,
  spec: CommandSpec<State, Event>,
): Promise<CommandResult<State, Event>> {
  if (streamId === null) return decideWithoutStream(ctx, spec);
  const inTurn = ctx.eventStore.projectsAfterCommit ? undefined : ctx.eventStore.inTurn?.bind(ctx.eventStore);
  return withStreamLock(streamId, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return attempt > 1 && inTurn ? await attemptInTurn(inTurn, streamId, spec) : await attemptOptimistically(ctx, streamId, spec);
      } catch (error) {
        const verdict = error instanceof WrongExpectedRevisionError ? 'retry' : spec.onConstraintViolation?.(error as AppendFailure);
        if (verdict instanceof DomainError) throw verdict;
        if (verdict !== 'retry') throw error;
        if (attempt >= maxAttempts) {
          throw new DomainError('dependency_unavailable', `too many concurrent changes to ${streamId}; try again`);
        }
        // A turn waits in PostgreSQL's queue: no pause before it.
        if (!inTurn) await sleep(Math.random() * Math.min(100, 2 ** attempt));
      }
    }
  });
}
