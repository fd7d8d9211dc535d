import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { EventEnvelope } from '../../domain/event-envelope.js';
import type { Database, Executor } from '../../infra/db/database.js';
import type { WebhookDeliveryRow } from '../../infra/db/tables/webhook-deliveries.table.js';

/**
 * The webhook delivery queue: the sender's working state, written without an event. The relay
 * fills it from the log (each event's delivery once, behind its checkpoint) and the sender claims,
 * retries and dead-letters its rows; attempts, claims and status codes are transport, not facts of
 * the booking log.
 */

export type NewWebhookDelivery = { envelope: EventEnvelope; orderingKey: string; resourceId: string; now: Date; traceparent?: string };

/** Queues envelopes in one statement; deliveries sharing `orderingKey` leave in the order they were queued. */
export async function queueWebhookDeliveries(db: Executor, deliveries: NewWebhookDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .insertInto('webhook_deliveries')
    .values(
      deliveries.map(({ envelope, orderingKey, resourceId, now, traceparent }) => ({
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
        claim_id: null,
        last_error: null,
        last_status_code: null,
        dead_lettered_at: null,
        traceparent: traceparent ?? null,
      })),
    )
    .execute();
}

/**
 * Claims the deliveries that are due and first in line for their key: while the head of a key
 * waits for a retry or is being sent, the deliveries behind it wait too, and other keys flow. The
 * lease keeps a claimed delivery from every other sender until it ends; `claimId` names this claim
 * (releaseLostClaim). One statement, so that no transaction of the sender stays open to hold back
 * the log's horizon; a row another sender claimed meanwhile is re-checked against its new lease and left.
 */
export async function claimDueDeliveries(
  db: Database,
  options: { now: Date; leaseMs: number; limit: number; claimId: string },
): Promise<WebhookDeliveryRow[]> {
  const { now, leaseMs, limit, claimId } = options;
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
    update webhook_deliveries as w set claimed_until = ${new Date(now.getTime() + leaseMs)}, claim_id = ${claimId}
    from due where w.id = due.id
    returning w.*`.execute(db);
  return rows.sort((a, b) => Number(a.queue_order) - Number(b.queue_order));
}

/**
 * Gives back every delivery still held by the claim `claimId`: a claim statement whose answer was
 * lost with its connection may have committed, and its deliveries would otherwise wait out their lease.
 */
export async function releaseLostClaim(db: Executor, claimId: string): Promise<void> {
  await db.updateTable('webhook_deliveries').set({ claimed_until: null, claim_id: null }).where('claim_id', '=', claimId).execute();
}

/** Gives a claimed delivery back untried (the sender is stopping); nothing when its claim is no longer this one. */
export async function releaseClaim(db: Executor, delivery: WebhookDeliveryRow): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ claimed_until: null, claim_id: null })
    .where('id', '=', delivery.id)
    .where('claim_id', '=', delivery.claim_id)
    .execute();
}

/** A delivery whose POST was acknowledged, and the id under which to claim its key's next one. */
export type Acknowledged = { delivery: WebhookDeliveryRow; nextClaimId: string };

/**
 * Marks deliveries delivered and claims the next one of each key when it is due, in one statement
 * for many keys: a resource's deliveries follow each other with one round trip between them, and
 * many resources share that round trip. The statement still sees the deleted rows, so they are left
 * out of the deliveries ahead. Answers each acknowledged delivery's next one, in the same order.
 *
 * Safe to repeat with the same `nextClaimId` after its answer was lost: a delivery is deleted only
 * while this sender's claim still holds it (after its lease ran out another sender may have taken
 * it over), the next one is claimed only when the delivery was deleted, now or by an earlier try,
 * and a next one already claimed by `nextClaimId` (an earlier try that committed) is answered again.
 */
export async function markDeliveredAndClaimNext(
  db: Executor,
  acknowledged: readonly Acknowledged[],
  options: { now: Date; leaseMs: number },
): Promise<(WebhookDeliveryRow | undefined)[]> {
  const { now, leaseMs } = options;
  const { rows } = await sql<WebhookDeliveryRow>`
    with acked as (
      select * from unnest(
        ${acknowledged.map((a) => a.delivery.id)}::uuid[],
        ${acknowledged.map((a) => a.delivery.claim_id)}::uuid[],
        ${acknowledged.map((a) => a.delivery.ordering_key)}::text[],
        ${acknowledged.map((a) => a.nextClaimId)}::uuid[]) as a(id, claim_id, ordering_key, next_claim_id)),
    delivered as (
      delete from webhook_deliveries as w using acked
      where w.id = acked.id and w.claim_id = acked.claim_id
      returning w.id),
    next as materialized (
      select n.id, acked.next_claim_id from acked
      cross join lateral (
        select d.id from webhook_deliveries as d
        where d.status = 'pending' and d.ordering_key = acked.ordering_key and d.id <> acked.id
          and d.next_attempt_at <= ${now}
          and (d.claimed_until is null or d.claimed_until <= ${now} or d.claim_id = acked.next_claim_id)
          and not exists (
            select 1 from webhook_deliveries as ahead
            where ahead.status = 'pending' and ahead.ordering_key = d.ordering_key and ahead.queue_order < d.queue_order
              and ahead.id <> acked.id)
        order by d.queue_order
        limit 1
        for update skip locked) as n
      where exists (select 1 from delivered where delivered.id = acked.id)
        or not exists (select 1 from webhook_deliveries as gone where gone.id = acked.id))
    update webhook_deliveries as w set claimed_until = ${new Date(now.getTime() + leaseMs)}, claim_id = next.next_claim_id
    from next where w.id = next.id
    returning w.*`.execute(db);
  const byClaim = new Map(rows.map((row) => [row.claim_id, row]));
  return acknowledged.map((a) => byClaim.get(a.nextClaimId));
}

/**
 * Counts a failed attempt: retried at `retryAt`, or dead-lettered when the schedule is spent (null).
 * Nothing when its claim is no longer this one (safe to repeat).
 */
export async function recordFailedAttempt(
  db: Executor,
  delivery: WebhookDeliveryRow,
  failure: { statusCode: number | null; error: string; retryAt: Date | null; now: Date },
): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      attempts: eb('attempts', '+', 1),
      last_error: failure.error,
      last_status_code: failure.statusCode,
      claimed_until: null,
      claim_id: null,
      ...(failure.retryAt ? { next_attempt_at: failure.retryAt } : { status: 'dead' as const, dead_lettered_at: failure.now }),
    }))
    .where('id', '=', delivery.id)
    .where('claim_id', '=', delivery.claim_id)
    .execute();
}
