import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EventEnvelope } from '../../domain/booking/event-envelope.js';
import type { Database, Executor } from '../db/database.js';
import type { WebhookDeliveryRow } from '../db/tables/webhook-deliveries.table.js';

export type NewWebhookDelivery = { envelope: EventEnvelope; orderingKey: string; resourceId: string; now: Date };

/** Queues envelopes in one statement; deliveries sharing `orderingKey` leave in the order they were queued. */
export async function queueWebhookDeliveries(db: Executor, deliveries: NewWebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map(({ envelope, orderingKey, resourceId, now }) => ({
        id: randomUUID(),
        event_id: envelope.id,
        event: envelope.event,
        workspace: envelope.workspace,
        ordering_key: orderingKey,
        resource_id: resourceId,
        payload: JSON.stringify(envelope),
        status: 'pending' as const,
        next_attempt_at: now,
        claimed_until: null,
        last_error: null,
        last_status_code: null,
        dead_lettered_at: null,
      })),
    )
    .execute();
}

/**
 * Claims the deliveries that are due and first in line for their key: while the head of a key
 * waits for a retry or is being sent, the deliveries behind it wait too, and other keys flow. The
 * lease keeps a claimed delivery from every other sender until it ends. One statement, so that no transaction of the sender stays open to hold back the log's
 * horizon; a row another sender claimed meanwhile is re-checked against its new lease and left.
 */
export async function claimDueDeliveries(
  db: Database,
  options: { now: Date; leaseMs: number; limit: number },
): Promise<WebhookDeliveryRow[]> {
  const { now, leaseMs, limit } = options;
  const { rows } = await sql<WebhookDeliveryRow>`
    with due as materialized (
      select d.id from webhook_deliveries as d
      where d.status = 'pending'
        and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until <= ${now})
        and not exists (
          select 1 from webhook_deliveries as ahead
          where ahead.status = 'pending' and ahead.ordering_key = d.ordering_key and ahead.queue_order < d.queue_order)
      order by d.queue_order
      limit ${limit}
      for update skip locked)
    update webhook_deliveries as w set claimed_until = ${new Date(now.getTime() + leaseMs)}
    from due where w.id = due.id
    returning w.*`.execute(db);
  return rows.sort((a, b) => Number(a.queue_order) - Number(b.queue_order));
}

/** Gives a claimed delivery back untried (the sender is stopping). */
export async function releaseClaim(db: Executor, id: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ claimed_until: null }).where('id', '=', id).execute();
}

/**
 * Marks a delivery delivered and claims the next one of its key when it is due, in one statement:
 * a resource's deliveries follow each other with one round trip between them. The statement still
 * sees the deleted row, so it is left out of the deliveries ahead.
 */
export async function markDeliveredAndClaimNext(db: Executor, delivered: WebhookDeliveryRow, options: { now: Date; leaseMs: number }): Promise<WebhookDeliveryRow | undefined> {
  const { now, leaseMs } = options;
  const { rows } = await sql<WebhookDeliveryRow>`
    with delivered as (delete from webhook_deliveries where id = ${delivered.id}),
    next as materialized (
      select d.id from webhook_deliveries as d
      where d.status = 'pending' and d.ordering_key = ${delivered.ordering_key} and d.id <> ${delivered.id}
        and d.next_attempt_at <= ${now}
        and (d.claimed_until is null or d.claimed_until <= ${now})
        and not exists (
          select 1 from webhook_deliveries as ahead
          where ahead.status = 'pending' and ahead.ordering_key = d.ordering_key and ahead.queue_order < d.queue_order
            and ahead.id <> ${delivered.id})
      order by d.queue_order
      limit 1
      for update skip locked)
    update webhook_deliveries as w set claimed_until = ${new Date(now.getTime() + leaseMs)}
    from next where w.id = next.id
    returning w.*`.execute(db);
  return rows[0];
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
