import { setTimeout as sleep } from 'node:timers/promises';
import type { Executor } from '../infra/db/database.js';
import type { NewEvent, RecordedEvent } from '../infra/event-store/event-store.js';
import { WrongExpectedRevisionError } from '../infra/event-store/wrong-expected-revision-error.js';
import { inlineProjection } from '../projections/inline-projection.js';
import { DomainError } from '../domain/domain-error.js';
import type { CommandContext } from './command-context.js';
import { withStreamLock } from './with-stream-lock.js';

const maxAttempts = 25;

export type CommandSpec<State> = {
  /** Reads the state the decision needs from the read models (kept current inside each append). */
  load: (db: Executor) => Promise<State>;
  /** Pure decision: the events to append, none when nothing changes; throws DomainError to refuse. */
  decide: (state: State) => NewEvent[];
  /**
   * A constraint of the read model failing inside the append (e.g. the overlap exclusion): a
   * DomainError answers the client, 'retry' reloads and decides again; anything else propagates.
   */
  onConstraintViolation?: (error: { code?: string; constraint?: string }) => DomainError | 'retry' | undefined;
};

export type CommandResult<State> = { state: State; events: RecordedEvent[] };

/**
 * 1. read the stream revision, 2. load the state, 3. decide, 4. append expecting that revision.
 * The revision is read before the state, so anything committed in between makes the append fail
 * and the decision is taken again on fresh state.
 */
export async function handleCommand<State>(ctx: CommandContext, streamId: string, spec: CommandSpec<State>): Promise<CommandResult<State>> {
  return withStreamLock(streamId, async () => {
    for (let attempt = 1; ; attempt++) {
      const revision = await ctx.eventStore.readStreamRevision(streamId);
      const state = await spec.load(ctx.db);
      const events = spec.decide(state);
      if (events.length === 0) return { state, events: [] };
      try {
        const result = await ctx.eventStore.appendToStream(streamId, events, revision ?? 'no_stream', { inlineProjection });
        return { state, events: result.events };
      } catch (error) {
        const verdict = error instanceof WrongExpectedRevisionError ? 'retry' : spec.onConstraintViolation?.(error as { code?: string });
        if (verdict instanceof DomainError) throw verdict;
        if (verdict !== 'retry') throw error;
        if (attempt >= maxAttempts) {
          throw new DomainError('dependency_unavailable', `too many concurrent changes to ${streamId}; try again`);
        }
        await sleep(Math.random() * Math.min(100, 2 ** attempt));
      }
    }
  });
}
