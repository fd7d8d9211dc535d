// The last command queued per stream: a queue, not a cache; an entry leaves when its stream's queue empties.
const tails = new Map<string, Promise<unknown>>();

/**
 * Runs commands of one stream one after another inside this process. Optimistic concurrency
 * still decides between processes; this only keeps a burst on one resource from turning into a
 * storm of version conflicts and retries.
 */
export async function withStreamLock<T>(streamId: string, run: () => Promise<T>): Promise<T> {
  const previous = tails.get(streamId) ?? Promise.resolve();
  const current = previous.then(run, run);
  const tail = current.catch(() => undefined);
  tails.set(streamId, tail);
  try {
    return await current;
  } finally {
    if (tails.get(streamId) === tail) tails.delete(streamId);
  }
}
