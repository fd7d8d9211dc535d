import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { reportStreamFull, withStreamLock } from '../../src/commands/with-stream-lock.js';

/** A command that records when it starts and ends, and ends when told. */
function command(log: string[], name: string) {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return {
    end,
    run: async () => {
      log.push(`${name} runs`);
      await ended;
      log.push(`${name} done`);
      return name;
    },
  };
}

describe('commands of one stream in one process (withStreamLock)', () => {
  it('run one after another, in the order they came', async () => {
    const log: string[] = [];
    const [a, b, c] = [command(log, 'a'), command(log, 'b'), command(log, 'c')];
    const results = [withStreamLock('s1', a.run), withStreamLock('s1', b.run), withStreamLock('s1', c.run)];
    await sleep(5);
    a.end();
    await sleep(5);
    c.end();
    b.end();
    expect(await Promise.all(results)).to.deep.equal(['a', 'b', 'c']);
    expect(log).to.deep.equal(['a runs', 'a done', 'b runs', 'b done', 'c runs', 'c done']);
  });

  it('let a waiter leave with its refusal once the stream is reported full, the others keeping their turns', async () => {
    const log: string[] = [];
    const [a, b, c] = [command(log, 'a'), command(log, 'b'), command(log, 'c')];
    const first = withStreamLock('s2', a.run);
    const refused = withStreamLock('s2', b.run, async () => {
      log.push('b looks');
      throw new Error('b refused');
    });
    const staying = withStreamLock('s2', c.run, async () => {
      log.push('c looks');
    });
    await sleep(5);
    expect(log).to.deep.equal(['a runs']);
    reportStreamFull('s2');
    expect(await refused.catch((error: Error) => error.message)).to.equal('b refused');
    await sleep(5);
    // c stays in line behind a, which still runs: leaving early lets nobody past it.
    expect(log).to.deep.equal(['a runs', 'b looks', 'c looks']);
    a.end();
    await sleep(5);
    c.end();
    expect(await Promise.all([first, staying])).to.deep.equal(['a', 'c']);
    expect(log).to.deep.equal(['a runs', 'b looks', 'c looks', 'a done', 'c runs', 'c done']);
  });

  it('keep the order for a command that arrives after every waiter left early', async () => {
    const log: string[] = [];
    const [a, d] = [command(log, 'a'), command(log, 'd')];
    const first = withStreamLock('s3', a.run);
    const left = withStreamLock('s3', async () => 'never', async () => {
      throw new Error('left');
    });
    reportStreamFull('s3');
    await left.catch(() => undefined);
    const later = withStreamLock('s3', d.run);
    await sleep(5);
    expect(log).to.deep.equal(['a runs']);
    a.end();
    d.end();
    expect(await Promise.all([first, later])).to.deep.equal(['a', 'd']);
    expect(log).to.deep.equal(['a runs', 'a done', 'd runs', 'd done']);
  });
});
