import { excludeSystemEvents, START, type AllStreamResolvedEvent, type AllStreamSubscription, type EventStoreDBClient } from '@eventstore/db-client';
import type { LogPosition, RecordedEvent } from './event-store.js';

/**
 * How long a read waits for the subscription's next event before it answers what it has: while
 * it catches up, a batch fills up to its size; once live, a read woken by a fresh append finds it.
 */
const idleMs = 20;
/** How long a read waits for a new subscription's first answer (confirmation, events, an error). */
const firstAnswerMs = 5_000;
/** The longest a read fills its batch from a subscription that keeps trickling. */
const maxFillMs = 200;

type EsdbRecorded = NonNullable<AllStreamResolvedEvent['event']>;

type Follower = {
  subscription: AllStreamSubscription;
  /** The position of the last event handed out (or the one it was opened after). */
  next: LogPosition;
  /** The server has answered the subscription (confirmed it, or sent events). */
  heard: boolean;
  /** The server said it has delivered everything written so far ('caughtUp'). */
  live: boolean;
  failure?: unknown;
  /** Called when the subscription has something to say: events, caught up, failed, ended. */
  signal?: () => void;
};

const isStart = (p: LogPosition) => p.transactionId === '0' && p.globalPosition === 0;
const samePosition = (a: LogPosition, b: LogPosition) => a.transactionId === b.transactionId && a.globalPosition === b.globalPosition;

/**
 * Reads of `$all` through filtered subscriptions: the server leaves out system events (their type
 * starts with `$`), so a follower never stalls behind them. A named follower keeps its subscription
 * between reads while it continues where its last read ended; a read from anywhere else (a batch
 * that did not commit, a checkpoint moved by another instance, a restart) opens a new one after
 * the position asked, which is the stored checkpoint. A subscription that failed (the server lost,
 * UnavailableError) is dropped: its read fails, and the next read subscribes again.
 */
export function createEventStoreDbFollowers(
  client: EventStoreDBClient,
  convert: { toRecorded: (event: EsdbRecorded) => RecordedEvent; toError: (error: unknown) => unknown },
) {
  const followers = new Map<string, Follower>();

  const open = (after: LogPosition, maxCount: number): Follower => {
    const fromPosition = isStart(after) ? START : { commit: BigInt(after.transactionId), prepare: BigInt(after.globalPosition) };
    const subscription = client.subscribeToAll({ fromPosition, filter: excludeSystemEvents() }, { highWaterMark: maxCount });
    const follower: Follower = { subscription, next: after, heard: false, live: false };
    const tell = () => follower.signal?.();
    const heard = () => {
      follower.heard = true;
      tell();
    };
    subscription.on('confirmation', heard);
    subscription.on('readable', heard);
    subscription.on('caughtUp', () => {
      follower.live = true;
      heard();
    });
    subscription.on('fellBehind', () => {
      follower.live = false;
    });
    subscription.on('error', (error) => {
      follower.failure ??= error;
      tell();
    });
    subscription.on('end', () => {
      follower.failure ??= new Error('the $all subscription ended');
      tell();
    });
    return follower;
  };

  const close = (follower: Follower) => {
    void follower.subscription.unsubscribe().catch(() => undefined);
  };

  /** Resolves true when the subscription signals, false when it kept quiet for `quietMs`. */
  const waitForSignal = (follower: Follower, quietMs: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), quietMs);
      function done(signalled: boolean) {
        clearTimeout(timer);
        follower.signal = undefined;
        resolve(signalled);
      }
      follower.signal = () => done(true);
    });

  /** Up to `maxCount` events after `follower.next`; a failed subscription throws. */
  const take = async (follower: Follower, maxCount: number): Promise<RecordedEvent[]> => {
    const events: RecordedEvent[] = [];
    const deadline = Date.now() + maxFillMs;
    for (;;) {
      while (events.length < maxCount) {
        const resolved = follower.subscription.read() as AllStreamResolvedEvent | null;
        if (resolved === null) break;
        if (!resolved.event) continue;
        const event = convert.toRecorded(resolved.event);
        // A subscription starts after its position; should a server repeat the event there, it is skipped.
        if (events.length === 0 && samePosition({ transactionId: event.transactionId, globalPosition: event.globalPosition }, follower.next)) continue;
        events.push(event);
      }
      if (follower.failure !== undefined) throw convert.toError(follower.failure);
      // Live with events in hand: everything written so far has been handed out.
      if (events.length >= maxCount || (follower.live && events.length > 0) || Date.now() >= deadline) return events;
      if (!(await waitForSignal(follower, follower.heard ? idleMs : firstAnswerMs))) return events;
    }
  };

  return {
    async read({ after, maxCount, follower: name }: { after: LogPosition; maxCount: number; follower?: string }): Promise<RecordedEvent[]> {
      const kept = name === undefined ? undefined : followers.get(name);
      const follower = kept && samePosition(kept.next, after) && kept.failure === undefined ? kept : open(after, maxCount);
      if (kept && kept !== follower) close(kept);
      if (name === undefined) {
        try {
          return await take(follower, maxCount);
        } finally {
          close(follower);
        }
      }
      followers.set(name, follower);
      try {
        const events = await take(follower, maxCount);
        const last = events.at(-1);
        if (last) follower.next = { transactionId: last.transactionId, globalPosition: last.globalPosition };
        return events;
      } catch (error) {
        followers.delete(name);
        close(follower);
        throw error;
      }
    },
  };
}
