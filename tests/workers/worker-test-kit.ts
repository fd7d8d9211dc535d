import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../src/infra/db/database.js';
import { logStart, type EventStore, type RecordedEvent } from '../../src/infra/event-store/event-store.js';
import type { WorkerOptions } from '../../src/workers/worker-options.js';

/** Worker tunables for tests: short polls, retries and backoff, so nothing waits for long. */
export const fastWorkerOptions: Partial<WorkerOptions> = {
  pollIntervalMs: 20,
  standbyRetryMs: 50,
  backoff: { initialMs: 20, maxMs: 200 },
  timerLeaseMs: 5_000,
  timerRetryMs: 100,
  webhookTimeoutMs: 2_000,
  webhookRetryDelaysMs: [50, 100],
  webhookJitterRatio: 0,
  reconcileIntervalMs: 60_000,
};

/** Polls `check` until it answers something truthy; fails after `timeoutMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, { timeoutMs = 10_000, what = 'condition' } = {}): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(20);
  }
}

/**
 * Every event of the global log, in log order, as far as it is final: a transaction running
 * anywhere in the cluster holds back what follows it, so callers poll rather than expect.
 */
export async function allEvents(eventStore: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (let after = logStart; ; ) {
    const batch = await eventStore.readAll({ after, maxCount: 500 });
    events.push(...batch);
    const last = batch.at(-1);
    if (!last) return events;
    after = { transactionId: last.transactionId, globalPosition: last.globalPosition };
  }
}

/** Waits until every committed event is final in the global log, so a reader sees it at once. */
export async function logSettled(db: Database, eventStore: EventStore): Promise<void> {
  const { n } = await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await waitFor(async () => (await allEvents(eventStore)).length >= Number(n), { what: 'the global log to settle' });
}

/** The events about one booking, read from its resource's stream (no wait for the global log). */
export async function bookingEventsOf(services: { db: Database; eventStore: EventStore }, bookingId: string): Promise<RecordedEvent[]> {
  const row = await services.db.selectFrom('bookings').select('bookable_resource_id').where('id', '=', bookingId).executeTakeFirstOrThrow();
  const events = await services.eventStore.readStream(`resource-${row.bookable_resource_id}`);
  return events.filter((e) => (e.data.booking as { id?: string } | undefined)?.id === bookingId);
}

export async function bookingEventTypesOf(services: { db: Database; eventStore: EventStore }, bookingId: string): Promise<string[]> {
  return (await bookingEventsOf(services, bookingId)).map((e) => e.type);
}

export async function timersOf(db: Database, bookingId: string): Promise<{ kind: string; dueAt: string }[]> {
  const rows = await db.selectFrom('timers').select(['kind', 'due_at']).where('booking_id', '=', bookingId).orderBy('kind').execute();
  return rows.map((r) => ({ kind: r.kind, dueAt: r.due_at.toISOString() }));
}

/** Waits until the processor has placed its checkpoint: a relay starts at the end of the log, and misses nothing after that. */
export async function checkpointPlaced(db: Database, name: string): Promise<void> {
  await waitFor(() => db.selectFrom('processor_checkpoints').select('name').where('name', '=', name).executeTakeFirst(), { what: `the checkpoint of ${name}` });
}
