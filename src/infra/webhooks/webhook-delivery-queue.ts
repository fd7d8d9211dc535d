import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EventEnvelope } from '../../domain/booking/event-envelope.js';
import type { Database, Executor } from '../db/database.js';
import type { WebhookDeliveryRow } from '../db/tables/webhook-deliveries.table.js';

/** Queues an envelope; deliveries sharing `orderingKey` leave in the order they were queued. */
export async function queueWebhookDelivery(db: Executor, delivery: { envelope: EventEnvelope; orderingKey: string; resourceId: string; now: Date }): Promise<void> {
  const { envelope } = delivery;
  await db
    .insertInto('webhook_deliveries')
    .values({
      id: randomUUID(),
      event_id: envelope.id,
      event: envelope.event,
      workspace: envelope.workspace,
      ordering_key: delivery.orderingKey,
      resource_id: delivery.resourceId,
      payload: JSON.stringify(envelope),
      status: 'pending',
      next_attempt_at: delivery.now,
      claimed_until: null,
      last_error: null,
      last_status_code: null,
      dead_lettered_at: null,
    })
    .execute();
}

/**
 * Claims the deliveries that are due and first in line for their key: while the head of a key
 * waits for a retry, the deliveries behind it wait too, and other keys flow. The lease keeps a
 * claimed delivery from every other sender until it ends.
 */
export async function claimDueDeliveries(db: Database, options: { now: Date; leaseMs: number; limit: number }): Promise<WebhookDeliveryRow[]> {
  const { now, leaseMs, limit } = options;
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .selectAll()
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('d.claimed_until', 'is', null), eb('d.claimed_until', '<=', now)]))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as ahead')
              .select(sql`1`.as('one'))
              .where('ahead.status', '=', 'pending')
              .whereRef('ahead.ordering_key', '=', 'd.ordering_key')
              .whereRef('ahead.queue_order', '<', 'd.queue_order'),
          ),
        ),
      )
      .orderBy('d.queue_order')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    await trx
      .updateTable('webhook_deliveries')
      .set({ claimed_until: new Date(now.getTime() + leaseMs) })
      .where(
        'id',
        'in',
        due.map((d) => d.id),
      )
      .execute();
    return due;
  });
}

/** Gives a claimed delivery back untried (the sender is stopping). */
export async function releaseClaim(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ claimed_until: null }).where('id', '=', id).execute();
}

export async function markDelivered(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('webhook_deliveries').where('id', '=', id).execute();
}

/** Counts a failed attempt: retried at `retryAt`, or dead-lettered when the schedule is spent (null). */
export async function recordFailedAttempt(
  db: Executor,
  id: string,
  failure: { statusCode: number | null; error: string; retryAt: Date | null; now: Date },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: failure.error,
      last_status_code: failure.statusCode,
      claimed_until: null,
      ...(failure.retryAt ? { next_attempt_at: failure.retryAt } : { status: 'dead' as const, dead_lettered_at: failure.now }),
    }))
    .where('id', '=', id)
    .execute();
}
