import { expect } from 'chai';
import { createLogger } from '../../src/infra/logger.js';
import { startSupervisedLoop, type RunningLoop } from '../../src/workers/supervised-loop.js';

const pollMs = 60_000;
const backoff = { initialMs: 50, maxMs: 200 };

/** A loop whose rounds each wait until the test lets them finish; every round asks for a long pause. */
function gatedLoop() {
  const started: (() => void)[] = [];
  let rounds = 0;
  let roundStarted: () => void = () => undefined;
  const nextRoundStarts = () => new Promise<void>((resolve) => (roundStarted = resolve));
  let firstStarts = nextRoundStarts();
  const loop = startSupervisedLoop('gated', createLogger('silent'), async () => {
    rounds += 1;
    await new Promise<void>((finish) => {
      started.push(finish);
      roundStarted();
    });
    return pollMs;
  }, { backoff });
  return {
    loop,
    rounds: () => rounds,
    /** Waits for the next round to start and returns what lets it finish. */
    async roundInFlight() {
      await firstStarts;
      firstStarts = nextRoundStarts();
      return started.shift()!;
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('supervised loop', () => {
  let loop: RunningLoop | undefined;
  afterEach(async () => {
    await loop?.stop();
    loop = undefined;
  });

  it('runs the next round at once when woken during a round', async () => {
    const gated = gatedLoop();
    loop = gated.loop;
    const finishFirst = await gated.roundInFlight();
    loop.wake();
    finishFirst();
    const finishSecond = await gated.roundInFlight();
    expect(gated.rounds()).to.equal(2);
    finishSecond();
  });

  it('pauses after a round nobody woke it during, until woken', async () => {
    const gated = gatedLoop();
    loop = gated.loop;
    (await gated.roundInFlight())();
    await settle();
    expect(gated.rounds()).to.equal(1);
    loop.wake();
    const finishSecond = await gated.roundInFlight();
    expect(gated.rounds()).to.equal(2);
    finishSecond();
  });

  it('forgets a wake once the round after it has run', async () => {
    const gated = gatedLoop();
    loop = gated.loop;
    const finishFirst = await gated.roundInFlight();
    loop.wake();
    finishFirst();
    (await gated.roundInFlight())();
    await settle();
    expect(gated.rounds()).to.equal(2);
  });
});
