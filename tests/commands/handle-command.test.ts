import { expect } from 'chai';
import { Temporal } from 'temporal-polyfill';
import type { CommandContext } from '../../src/commands/command-context.js';
import { handleCommand } from '../../src/commands/handle-command.js';
import { DomainError, notFound } from '../../src/domain/domain-error.js';

/** A context whose store fails any use: a target without a stream must never reach it. */
const untouchedStore = new Proxy({}, { get: (_target, name) => (name === 'projectsAfterCommit' ? false : () => expect.fail(`the store was asked ${String(name)}`)) });
const ctx = { db: {}, eventStore: untouchedStore, now: () => Temporal.Instant.from('2027-01-04T08:00:00Z'), logger: {} } as unknown as CommandContext;

type Event = { type: 'Happened'; data: Record<string, never> };

describe('a command on a target without a stream', () => {
  it('decides once on the state its load finds, and answers the refusal', async () => {
    const decided: string[] = [];
    const refused = await handleCommand<string, Event>(ctx, null, {
      load: async () => 'nothing here',
      decide: (state) => {
        decided.push(state);
        throw notFound('resource');
      },
    }).catch((error: unknown) => error);
    expect(refused).to.be.instanceOf(DomainError).and.include({ code: 'not_found' });
    expect(decided).to.deep.equal(['nothing here']);
  });

  it('answers no events when the decision changes nothing (a system move on an unknown booking)', async () => {
    const result = await handleCommand<string, Event>(ctx, null, { loadWithRevision: async () => ({ revision: null, state: 'gone' }), decide: () => [] });
    expect(result).to.deep.equal({ state: 'gone', events: [] });
  });

  it('fails, appending nothing, when the decision wants events there is no stream for', async () => {
    const error = await handleCommand<string, Event>(ctx, null, { load: async () => 'gone', decide: () => [{ type: 'Happened', data: {} }] }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(Error).and.not.instanceOf(DomainError);
    expect((error as Error).message).to.match(/without a stream produced events/);
  });
});
