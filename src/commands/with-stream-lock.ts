/** One stream's queue in this process: its last slot, and the signal that it has been found full. */
type StreamQueue = { tail: Promise<void>; full: Promise<void>; signalFull: () => void };

// A queue per stream, not a cache: an entry leaves when its stream's queue empties.
const queues = new Map<string, StreamQueue>();

function armFull(queue: Pick<StreamQueue, 'full' | 'signalFull'>): void {
  queue.full = new Promise<void>((resolve) => (queue.signalFull = resolve));
}

function queueOf(streamId: string): StreamQueue {
  let queue = queues.get(streamId);
  if (!queue) {
    queue = { tail: Promise.resolve() } as StreamQueue;
    armFull(queue);
    queues.set(streamId, queue);
  }
  return queue;
}

/**
 * Tells the commands waiting for the stream's turn in this process that a command was just refused
 * for what the stream holds (a slot or a pool full): each tries its `leaveEarly` now.
 */
export function reportStreamFull(streamId: string): void {
  const queue = queues.get(streamId);
  if (!queue) return;
  const signal = queue.signalFull;
  armFull(queue);
  signal();
}

/** Waits for the commands before this one; while waiting, tries `leaveEarly` whenever the stream is reported full. */
async function awaitTurn(previous: Promise<void>, queue: StreamQueue, leaveEarly?: () => Promise<void>): Promise<void> {
  if (!leaveEarly) return previous;
  for (;;) {
    const woken = await Promise.race([previous.then(() => 'turn' as const), queue.full.then(() => 'full' as const)]);
    if (woken === 'turn') return;
    await leaveEarly();
  }
}

/**
 * Runs commands of one stream one after another inside this process. Optimistic concurrency
 * still decides between processes; this only keeps a burst on one resource from turning into a
 * storm of version conflicts and retries. `leaveEarly`, when given, is tried each time the stream
 * is reported full (reportStreamFull) while this command waits for its turn: throwing leaves the
 * queue with that error, without running `run`; resolving keeps the command in line.
 */
export async function withStreamLock<T>(streamId: string, run: () => Promise<T>, leaveEarly?: () => Promise<void>): Promise<T> {
  const queue = queueOf(streamId);
  const previous = queue.tail;
  let finish!: () => void;
  const ours = new Promise<void>((resolve) => (finish = resolve));
  // The next command waits for every one before it, this one included, whether it ran or left.
  const slot = previous.then(() => ours);
  queue.tail = slot;
  try {
    await awaitTurn(previous, queue, leaveEarly);
    return await run();
  } finally {
    finish();
    // Once every command before it is done too (one that left early may finish before them).
    void slot.then(() => {
      if (queue.tail === slot) queues.delete(streamId);
    });
  }
}
